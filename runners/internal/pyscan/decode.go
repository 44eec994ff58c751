package pyscan

import "github.com/tausik/tausik/runners/internal/pycodec"

// decodeSource is pycodec.Text with its failure as a syntaxError.
func decodeSource(src, buf []byte) (text, scratch []byte, err *syntaxError) {
	text, scratch, line, msg := pycodec.Text(src, buf)
	if msg != "" {
		return nil, scratch, &syntaxError{line: line, msg: msg}
	}
	return text, scratch, nil
}
