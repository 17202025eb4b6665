package i18n

// koCommands is the Korean text for the plan card, questions, help and errors (commands/).
var koCommands = map[string]string{}
