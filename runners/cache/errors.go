package cache

import "errors"

// errRootNotUTF8 refuses to save the index of a root that no JSON string
// can hold unchanged.
var errRootNotUTF8 = errors.New("index root is not UTF-8")
