// Package pycodec turns a Python source file's bytes into the text CPython
// tokenises: the PEP 263 coding cookie (found where CPython's tokenizer looks
// for it, its name normalised as CPython does) and strict decoders for the
// charsets CPython's codec registry names, the single-byte ones checked byte
// for byte against CPython by the tests.
package pycodec

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// codec decodes a source file declared (by its coding cookie) to be in a
// charset other than UTF-8, strictly: a byte the charset leaves undefined is
// an error, as with CPython's codecs.
type codec struct {
	errName string            // the codec name CPython's decode errors use
	cm      *charmap.Charmap  // single-byte charsets
	c1Undef bool              // cm's C1 controls are undefined bytes (Windows code pages)
	c1      bool              // bytes 0x80-0x9F are the C1 controls (ISO 8859)
	undef   []byte            // bytes CPython leaves undefined though cm has them
	multi   encoding.Encoding // multi-byte charsets (best effort, see lookupCodec)
	kind    byte              // 'a' ascii, 'l' latin-1, 'u' strict utf-8
}

// high decodes a byte >= 0x80 of a single-byte charset; ok is false for a
// byte the charset leaves undefined.
func (c *codec) high(b byte) (rune, bool) {
	switch {
	case c.kind == 'a' || c.kind == 'u':
		return 0, false
	case c.kind == 'l':
		return rune(b), true
	case c.c1 && b < 0xA0:
		return rune(b), true
	case bytes.IndexByte(c.undef, b) >= 0:
		return 0, false
	}
	r := c.cm.DecodeByte(b)
	if r == utf8.RuneError || c.c1Undef && r >= 0x80 && r <= 0x9F {
		return 0, false
	}
	return r, true
}

// decode appends the UTF-8 form of src to dst. On failure it returns the
// offset of the first byte it could not decode.
func (c *codec) decode(src, dst []byte) (out []byte, bad int, ok bool) {
	if c.kind == 'u' {
		if i := validUTF8Prefix(src); i >= 0 {
			return dst, i, false
		}
		return src, 0, true
	}
	ascii := true
	for _, b := range src {
		if b >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return src, 0, true // every supported charset is ASCII-compatible
	}
	if c.multi == nil {
		for i, b := range src {
			if b < 0x80 {
				dst = append(dst, b)
				continue
			}
			r, ok := c.high(b)
			if !ok {
				return dst, i, false
			}
			dst = utf8.AppendRune(dst, r)
		}
	} else {
		res, err := c.multi.NewDecoder().Bytes(src)
		if err != nil {
			return dst, 0, false
		}
		if i := strings.IndexRune(string(res), utf8.RuneError); i >= 0 {
			return dst, approxOffset(src, res, i), false
		}
		dst = append(dst, res...)
	}
	return dst, 0, true
}

// approxOffset maps an offset in decoded text back to the source by counting
// line ends, so a multi-byte decode error is reported on the right line.
func approxOffset(src, decoded []byte, i int) int {
	lines := 0
	for _, b := range decoded[:i] {
		if b == '\n' {
			lines++
		}
	}
	for j, b := range src {
		if lines == 0 {
			return j
		}
		if b == '\n' {
			lines--
		}
	}
	return len(src) - 1
}

// codecs maps CPython's codec module names to decoders. Single-byte
// charsets are exact (checked byte for byte against CPython by the tests);
// the CJK ones use golang.org/x/text and may differ from CPython on
// malformed input.
var codecs = map[string]*codec{
	"ascii":        {errName: "ascii", kind: 'a'},
	"latin_1":      {errName: "latin-1", kind: 'l'},
	"utf_8":        {errName: "utf-8", kind: 'u'},
	"iso8859_2":    {errName: "charmap", cm: charmap.ISO8859_2, c1: true},
	"iso8859_3":    {errName: "charmap", cm: charmap.ISO8859_3, c1: true},
	"iso8859_4":    {errName: "charmap", cm: charmap.ISO8859_4, c1: true},
	"iso8859_5":    {errName: "charmap", cm: charmap.ISO8859_5, c1: true},
	"iso8859_6":    {errName: "charmap", cm: charmap.ISO8859_6, c1: true},
	"iso8859_7":    {errName: "charmap", cm: charmap.ISO8859_7, c1: true},
	"iso8859_8":    {errName: "charmap", cm: charmap.ISO8859_8, c1: true},
	"iso8859_9":    {errName: "charmap", cm: charmap.ISO8859_9, c1: true},
	"iso8859_10":   {errName: "charmap", cm: charmap.ISO8859_10, c1: true},
	"iso8859_13":   {errName: "charmap", cm: charmap.ISO8859_13, c1: true},
	"iso8859_14":   {errName: "charmap", cm: charmap.ISO8859_14, c1: true},
	"iso8859_15":   {errName: "charmap", cm: charmap.ISO8859_15, c1: true},
	"iso8859_16":   {errName: "charmap", cm: charmap.ISO8859_16, c1: true},
	"cp1250":       {errName: "charmap", cm: charmap.Windows1250, c1Undef: true},
	"cp1251":       {errName: "charmap", cm: charmap.Windows1251, c1Undef: true},
	"cp1252":       {errName: "charmap", cm: charmap.Windows1252, c1Undef: true},
	"cp1253":       {errName: "charmap", cm: charmap.Windows1253, c1Undef: true},
	"cp1254":       {errName: "charmap", cm: charmap.Windows1254, c1Undef: true},
	"cp1255":       {errName: "charmap", cm: charmap.Windows1255, c1Undef: true, undef: []byte{0xCA}},
	"cp1256":       {errName: "charmap", cm: charmap.Windows1256, c1Undef: true},
	"cp1257":       {errName: "charmap", cm: charmap.Windows1257, c1Undef: true},
	"cp1258":       {errName: "charmap", cm: charmap.Windows1258, c1Undef: true},
	"koi8_r":       {errName: "charmap", cm: charmap.KOI8R},
	"cp866":        {errName: "charmap", cm: charmap.CodePage866},
	"cp437":        {errName: "charmap", cm: charmap.CodePage437},
	"cp850":        {errName: "charmap", cm: charmap.CodePage850},
	"cp852":        {errName: "charmap", cm: charmap.CodePage852},
	"cp855":        {errName: "charmap", cm: charmap.CodePage855},
	"cp858":        {errName: "charmap", cm: charmap.CodePage858},
	"cp860":        {errName: "charmap", cm: charmap.CodePage860},
	"cp862":        {errName: "charmap", cm: charmap.CodePage862},
	"cp863":        {errName: "charmap", cm: charmap.CodePage863},
	"cp865":        {errName: "charmap", cm: charmap.CodePage865},
	"mac_roman":    {errName: "charmap", cm: charmap.Macintosh},
	"cp874":        {errName: "charmap", cm: charmap.Windows874, c1Undef: true},
	"mac_cyrillic": {errName: "charmap", cm: charmap.MacintoshCyrillic},
	"euc_jp":       {errName: "euc_jp", multi: japanese.EUCJP},
	"shift_jis":    {errName: "shift_jis", multi: japanese.ShiftJIS},
	"cp932":        {errName: "cp932", multi: japanese.ShiftJIS},
	"iso2022_jp":   {errName: "iso2022_jp", multi: japanese.ISO2022JP},
	"euc_kr":       {errName: "euc_kr", multi: korean.EUCKR},
	"gbk":          {errName: "gbk", multi: simplifiedchinese.GBK},
	"gb2312":       {errName: "gb2312", multi: simplifiedchinese.GBK},
	"gb18030":      {errName: "gb18030", multi: simplifiedchinese.GB18030},
	"hz":           {errName: "hz", multi: simplifiedchinese.HZGB2312},
	"big5":         {errName: "big5", multi: traditionalchinese.Big5},
}

// codecAliases are CPython's alias spellings (encodings/aliases.py) of the
// codecs above, after normalisation.
var codecAliases = map[string]string{
	"646": "ascii", "ansi_x3.4_1968": "ascii", "ansi_x3_4_1968": "ascii", "ansi_x3.4_1986": "ascii",
	"cp367": "ascii", "csascii": "ascii", "ibm367": "ascii", "iso646_us": "ascii",
	"iso_646.irv_1991": "ascii", "iso_ir_6": "ascii", "us": "ascii", "us_ascii": "ascii",
	"8859": "latin_1", "cp819": "latin_1", "csisolatin1": "latin_1", "ibm819": "latin_1",
	"iso8859": "latin_1", "iso8859_1": "latin_1", "iso_8859_1": "latin_1", "iso_8859_1_1987": "latin_1",
	"iso_ir_100": "latin_1", "l1": "latin_1", "latin": "latin_1", "latin1": "latin_1",
	"u8": "utf_8", "utf": "utf_8", "utf8": "utf_8", "utf8_ucs2": "utf_8", "utf8_ucs4": "utf_8", "cp65001": "utf_8",
	"csisolatin2": "iso8859_2", "iso_8859_2": "iso8859_2", "iso_8859_2_1987": "iso8859_2", "iso_ir_101": "iso8859_2", "l2": "iso8859_2", "latin2": "iso8859_2",
	"csisolatin3": "iso8859_3", "iso_8859_3": "iso8859_3", "iso_8859_3_1988": "iso8859_3", "iso_ir_109": "iso8859_3", "l3": "iso8859_3", "latin3": "iso8859_3",
	"csisolatin4": "iso8859_4", "iso_8859_4": "iso8859_4", "iso_8859_4_1988": "iso8859_4", "iso_ir_110": "iso8859_4", "l4": "iso8859_4", "latin4": "iso8859_4",
	"csisolatincyrillic": "iso8859_5", "cyrillic": "iso8859_5", "iso_8859_5": "iso8859_5", "iso_8859_5_1988": "iso8859_5", "iso_ir_144": "iso8859_5",
	"arabic": "iso8859_6", "asmo_708": "iso8859_6", "csisolatinarabic": "iso8859_6", "ecma_114": "iso8859_6", "iso_8859_6": "iso8859_6", "iso_8859_6_1987": "iso8859_6", "iso_ir_127": "iso8859_6",
	"csisolatingreek": "iso8859_7", "ecma_118": "iso8859_7", "elot_928": "iso8859_7", "greek": "iso8859_7", "greek8": "iso8859_7", "iso_8859_7": "iso8859_7", "iso_8859_7_1987": "iso8859_7", "iso_ir_126": "iso8859_7",
	"csisolatinhebrew": "iso8859_8", "hebrew": "iso8859_8", "iso_8859_8": "iso8859_8", "iso_8859_8_1988": "iso8859_8", "iso_ir_138": "iso8859_8",
	"csisolatin5": "iso8859_9", "iso_8859_9": "iso8859_9", "iso_8859_9_1989": "iso8859_9", "iso_ir_148": "iso8859_9", "l5": "iso8859_9", "latin5": "iso8859_9",
	"csisolatin6": "iso8859_10", "iso_8859_10": "iso8859_10", "iso_8859_10_1992": "iso8859_10", "iso_ir_157": "iso8859_10", "l6": "iso8859_10", "latin6": "iso8859_10",
	"iso_8859_13": "iso8859_13", "l7": "iso8859_13", "latin7": "iso8859_13",
	"iso_8859_14": "iso8859_14", "iso_8859_14_1998": "iso8859_14", "iso_celtic": "iso8859_14", "iso_ir_199": "iso8859_14", "l8": "iso8859_14", "latin8": "iso8859_14",
	"iso_8859_15": "iso8859_15", "l9": "iso8859_15", "latin9": "iso8859_15",
	"iso_8859_16": "iso8859_16", "iso_8859_16_2001": "iso8859_16", "iso_ir_226": "iso8859_16", "l10": "iso8859_16", "latin10": "iso8859_16",
	"1250": "cp1250", "windows_1250": "cp1250", "1251": "cp1251", "windows_1251": "cp1251",
	"1252": "cp1252", "windows_1252": "cp1252", "1253": "cp1253", "windows_1253": "cp1253",
	"1254": "cp1254", "windows_1254": "cp1254", "1255": "cp1255", "windows_1255": "cp1255",
	"1256": "cp1256", "windows_1256": "cp1256", "1257": "cp1257", "windows_1257": "cp1257",
	"1258": "cp1258", "windows_1258": "cp1258",
	"437": "cp437", "ibm437": "cp437", "cspc8codepage437": "cp437", "850": "cp850", "ibm850": "cp850",
	"852": "cp852", "ibm852": "cp852", "855": "cp855", "ibm855": "cp855", "858": "cp858", "ibm858": "cp858",
	"860": "cp860", "ibm860": "cp860", "862": "cp862", "ibm862": "cp862", "863": "cp863", "ibm863": "cp863",
	"865": "cp865", "ibm865": "cp865", "macintosh": "mac_roman", "macroman": "mac_roman",
	"cskoi8r": "koi8_r", "866": "cp866", "csibm866": "cp866", "ibm866": "cp866", "maccyrillic": "mac_cyrillic",
	"eucjp": "euc_jp", "ujis": "euc_jp", "u_jis": "euc_jp",
	"csshiftjis": "shift_jis", "shiftjis": "shift_jis", "sjis": "shift_jis", "s_jis": "shift_jis",
	"932": "cp932", "ms932": "cp932", "mskanji": "cp932", "ms_kanji": "cp932",
	"csiso2022jp": "iso2022_jp", "iso2022jp": "iso2022_jp", "iso_2022_jp": "iso2022_jp",
	"euckr": "euc_kr", "korean": "euc_kr", "ksc5601": "euc_kr", "ks_c_5601": "euc_kr", "ks_c_5601_1987": "euc_kr", "ksx1001": "euc_kr", "ks_x_1001": "euc_kr",
	"936": "gbk", "cp936": "gbk", "ms936": "gbk",
	"chinese": "gb2312", "csiso58gb231280": "gb2312", "euc_cn": "gb2312", "euccn": "gb2312", "eucgb2312_cn": "gb2312", "gb2312_1980": "gb2312", "gb2312_80": "gb2312", "iso_ir_58": "gb2312",
	"gb18030_2000": "gb18030", "big5_tw": "big5", "csbig5": "big5", "hzgb": "hz", "hz_gb": "hz", "hz_gb_2312": "hz",
}

// lookupCodec finds the codec for a cookie's name the way CPython's codec
// registry does: lower case, runs of other characters than letters, digits
// and '.' become one '_', then the alias table. nil means unknown here.
func lookupCodec(name string) *codec {
	var b strings.Builder
	punct := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if isAlnum(c) || c == '.' {
			if punct && b.Len() > 0 {
				b.WriteByte('_')
			}
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
			punct = false
		} else {
			punct = true
		}
	}
	n := b.String()
	if c, ok := codecs[n]; ok {
		return c
	}
	if a, ok := codecAliases[n]; ok {
		return codecs[a]
	}
	if a, ok := codecAliases[strings.ReplaceAll(n, ".", "_")]; ok {
		return codecs[a]
	}
	return nil
}
