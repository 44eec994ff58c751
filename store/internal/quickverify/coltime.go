package quickverify

import "github.com/tausik/tausik/store/internal/sqldb"

// AppendColumnTime appends the time column a body's time is stored as.
// A time already in UTC with a dot and 1–9 fraction digits, as append
// writes it, is padded without a parse (the quick pass meets 100,000 of
// them); the fields are range-checked first, so the short cut accepts
// exactly what the parse would and gives the same column.
func AppendColumnTime(dst []byte, body string) ([]byte, bool) {
	if utcFixable(body) {
		dst = append(dst, body[:len(body)-1]...)
		return append(append(dst, "000000000"[len(body)-21:]...), 'Z'), true
	}
	t, err := sqldb.ParseTime(body)
	if err != nil {
		return dst, false
	}
	return t.UTC().AppendFormat(dst, sqldb.TimeLayout), true
}

// utcFixable reports whether s is YYYY-MM-DDTHH:MM:SS.fZ with 1–9
// fraction digits and every field in range (the day within its month).
func utcFixable(s string) bool {
	if len(s) < 22 || len(s) > 30 || s[len(s)-1] != 'Z' || s[4] != '-' || s[7] != '-' ||
		s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != '.' {
		return false
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for _, c := range []byte(s[from:to]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = 10*n + int(c-'0')
		}
		return n, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	hour, ok4 := num(11, 13)
	minute, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	_, ok7 := num(20, len(s)-1)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || !ok7 || month < 1 || month > 12 || day < 1 ||
		hour > 23 || minute > 59 || sec > 59 {
		return false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day <= days
}
