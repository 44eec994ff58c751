//go:build !unix

package boundedread

// nonblock is 0 where there are no FIFOs to block on.
const nonblock = 0
