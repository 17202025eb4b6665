// Package i18n chooses the language a reply is written in and prints its
// messages in that language.
//
// A message's key is its English format string, written where it is used:
//
//	p.Tf("%s fits on %s", model, hw)
//
// In English the key is the text, formatted by fmt exactly as before, so
// English replies do not change. In Korean the key is looked up in the
// catalogue (ko.go) through golang.org/x/text/message, which also formats
// the numbers (1,234) — and Count writes large counts the Korean way (250만,
// 1.2억). A key with no Korean text is a test failure (TestEveryKeyHasKorean
// scans the tree for T and Tf calls), never a silent English fallback.
//
// The language is chosen per user: Korean when Slack's locale
// (users.info) is Korean or the request is written in Korean, else
// English (an en-US locale is Slack's default and does not outvote a
// Korean request); in the terminal,
// --lang, else LC_ALL / LC_MESSAGES / LANG. JSON keeps English field names
// and says which language its text fields use.
//
// Why x/text and not go-i18n: keys stay the English sentences in the code
// (no parallel id namespace to keep in step), x/text formats numbers and
// plurals by CLDR rules, and it is maintained by the Go team.
package i18n
