package i18n

// koPlanner is the Korean text for the planner's verdicts, memory lines, advice, warnings and assumptions.
var koPlanner = map[string]string{}
