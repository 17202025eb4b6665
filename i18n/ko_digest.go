package i18n

// koDigest is the Korean text for digests, their chart and schedules.
var koDigest = map[string]string{}
