package i18n

// koReservations is the Korean text for reservations, conflicts, status and announcements.
var koReservations = map[string]string{}
