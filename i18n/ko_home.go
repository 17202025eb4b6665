package i18n

// koHome is the Korean text for App Home, modals, reminders and nudges.
var koHome = map[string]string{}
