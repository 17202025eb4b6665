package slackfake

import "strings"

// EntityKind is what Slack makes of a control sequence in mrkdwn.
type EntityKind string

// The kinds of entity: a user mention pings the user, a special mention
// (<!here>, <!channel>, <!everyone>, <!subteam^…>) pings many, a channel
// link and a link show a name the reader did not see the target of.
const (
	EntityUser    EntityKind = "user"    // <@U…> or <@W…>, label after |
	EntityChannel EntityKind = "channel" // <#C…> or <#G…>
	EntitySpecial EntityKind = "special" // <!here>, <!channel>, <!subteam^S…|@team>, <!date^…>
	EntityLink    EntityKind = "link"    // <https://…|label>, <mailto:…>, or any other <…>
)

// Entity is one control sequence as Slack reads it.
type Entity struct {
	Kind   EntityKind
	Target string // "U123", "C123", "here", "subteam^S1", "https://x"
	Label  string // what follows |, if anything
	Raw    string // the sequence as sent, brackets included
}

// ReadMrkdwn reads text the way Slack reads the mrkdwn of a message a bot
// posts without link_names or parse=full (gpuplan never sets them), and
// returns the entities it makes and the text as shown.
//
// Slack's rules (docs.slack.dev, "Formatting message text"): &, < and >
// are control characters; &amp;, &lt; and &gt; are the characters
// themselves and start nothing. Every '<' that has a '>' after it opens a
// control sequence running to that '>': @ a user mention, # a channel, !
// a special mention, anything else a link (Slack links "<example.com>"
// too). The text after the first '|' is its label. This reader is
// deliberately no stricter than Slack: a sequence inside `code` or with
// an id Slack would not resolve is still an entity, because a test that
// uses it must not pass on a mention Slack would make live. Plain
// "@here" or "#general" make nothing: without link_names Slack leaves
// them as text.
func ReadMrkdwn(text string) (entities []Entity, shown string) {
	var b strings.Builder
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == '<':
			j := strings.IndexByte(text[i+1:], '>')
			if j < 0 {
				b.WriteString(text[i:]) // no '>' after it: Slack shows the rest as typed
				i = len(text)
				continue
			}
			raw := text[i : i+1+j+1]
			e := readEntity(raw)
			entities = append(entities, e)
			b.WriteString(e.shown())
			i += len(raw)
		case c == '&':
			switch rest := text[i:]; {
			case strings.HasPrefix(rest, "&lt;"):
				b.WriteByte('<')
				i += 4
			case strings.HasPrefix(rest, "&gt;"):
				b.WriteByte('>')
				i += 4
			case strings.HasPrefix(rest, "&amp;"):
				b.WriteByte('&')
				i += 5
			default:
				b.WriteByte('&')
				i++
			}
		default:
			b.WriteByte(c)
			i++
		}
	}
	return entities, b.String()
}

func readEntity(raw string) Entity {
	inner := raw[1 : len(raw)-1]
	target, label, _ := strings.Cut(inner, "|")
	e := Entity{Raw: raw, Label: label}
	switch {
	case strings.HasPrefix(target, "@"):
		e.Kind, e.Target = EntityUser, target[1:]
	case strings.HasPrefix(target, "#"):
		e.Kind, e.Target = EntityChannel, target[1:]
	case strings.HasPrefix(target, "!"):
		e.Kind, e.Target = EntitySpecial, target[1:]
	default:
		e.Kind, e.Target = EntityLink, target
	}
	return e
}

// shown is roughly what Slack displays for the entity: the label, else
// the target with its sigil (Slack shows a user's or channel's current
// name; the id stands in for it here).
func (e Entity) shown() string {
	if e.Label != "" {
		return e.Label
	}
	switch e.Kind {
	case EntityUser:
		return "@" + e.Target
	case EntityChannel:
		return "#" + e.Target
	case EntitySpecial:
		name, _, _ := strings.Cut(e.Target, "^")
		return "@" + name
	}
	return e.Target
}

// MessageEntities reads every mrkdwn string of a message as Slack would:
// the top-level text (mrkdwn unless the message says "mrkdwn": false) and
// each text object of type mrkdwn in its blocks, at any depth. plain_text
// objects, button values and ids make no entities.
func MessageEntities(text string, blocks []any) []Entity {
	ents, _ := ReadMrkdwn(text)
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if x["type"] == "mrkdwn" {
				if s, ok := x["text"].(string); ok {
					e, _ := ReadMrkdwn(s)
					ents = append(ents, e...)
				}
			}
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(blocks)
	return ents
}

// Entities reads the mrkdwn of a message the fake keeps.
func (m Message) Entities() []Entity { return MessageEntities(m.Text, m.Blocks) }
