package slackfake

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Block Kit limits (docs.slack.dev Block Kit reference).
const (
	MaxMessageBlocks   = 50
	MaxViewBlocks      = 100
	MaxSectionText     = 3000
	MaxSectionFields   = 10
	MaxFieldText       = 2000
	MaxHeaderText      = 150
	MaxContextElements = 10
	MaxActionsElements = 25
	MaxButtonText      = 75
	MaxButtonValue     = 2000
	MaxURL             = 3000
	MaxID              = 255 // action_id, block_id, callback_id, external_id
	MaxViewTitle       = 24  // modal title, submit, close
	MaxPrivateMetadata = 3000
	MaxInputLabel      = 2000
	MaxPlaceholder     = 150
	MaxOptions         = 100
	MaxOptionText      = 75
	MaxOptionValue     = 150
)

// checker collects violations under a prefix that says where they were seen.
type checker struct {
	where string
	out   []string
}

func (c *checker) addf(path, format string, args ...any) {
	c.out = append(c.out, fmt.Sprintf("%s: %s: %s", c.where, path, fmt.Sprintf(format, args...)))
}

func (c *checker) maxLen(path, s string, limit int) {
	if n := utf8.RuneCountInString(s); n > limit {
		c.addf(path, "is %d characters (limit %d)", n, limit)
	}
}

func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

// validateMessage checks a message: its blocks and the top-level text
// fallback Slack wants whenever blocks are sent.
func validateMessage(where, text string, blocks []any) []string {
	c := &checker{where: where}
	if len(blocks) > MaxMessageBlocks {
		c.addf("blocks", "%d blocks (limit %d per message)", len(blocks), MaxMessageBlocks)
	}
	if len(blocks) > 0 && strings.TrimSpace(text) == "" {
		c.addf("text", "message has blocks but no top-level text fallback")
	}
	c.blocks(blocks)
	return c.out
}

// validateView checks a modal or Home tab view.
func validateView(where string, view map[string]any) []string {
	c := &checker{where: where}
	typ := str(view, "type")
	if typ != "modal" && typ != "home" {
		c.addf("view.type", "%q is not modal or home", typ)
	}
	blocks, err := blocksOf(view["blocks"])
	if err != nil {
		c.addf("view.blocks", "%v", err)
	}
	if len(blocks) > MaxViewBlocks {
		c.addf("view.blocks", "%d blocks (limit %d per view)", len(blocks), MaxViewBlocks)
	}
	if typ == "modal" {
		if view["title"] == nil {
			c.addf("view.title", "a modal needs a title")
		}
		for _, k := range []string{"title", "submit", "close"} {
			if t, present := view[k]; present && t != nil {
				c.text("view."+k, t, MaxViewTitle, true)
			}
		}
		if view["submit"] == nil {
			for _, b := range blocks {
				if bm, _ := b.(map[string]any); bm != nil && bm["type"] == "input" {
					c.addf("view.submit", "a modal with input blocks needs a submit button")
					break
				}
			}
		}
	}
	c.maxLen("view.private_metadata", str(view, "private_metadata"), MaxPrivateMetadata)
	c.maxLen("view.callback_id", str(view, "callback_id"), MaxID)
	c.maxLen("view.external_id", str(view, "external_id"), MaxID)
	c.blocks(blocks)
	return c.out
}

func (c *checker) blocks(blocks []any) {
	for i, b := range blocks {
		c.block(fmt.Sprintf("blocks[%d]", i), b)
	}
}

func (c *checker) block(path string, b any) {
	bm, ok := b.(map[string]any)
	if !ok {
		c.addf(path, "is a %T, not a block object", b)
		return
	}
	typ := str(bm, "type")
	if typ == "" {
		c.addf(path, "block has no type")
		return
	}
	path = fmt.Sprintf("%s (%s)", path, typ)
	c.maxLen(path+".block_id", str(bm, "block_id"), MaxID)
	switch typ {
	case "section":
		fields, _ := bm["fields"].([]any)
		if bm["text"] == nil && len(fields) == 0 {
			c.addf(path, "a section needs text or fields")
		}
		if t, present := bm["text"]; present && t != nil {
			c.text(path+".text", t, MaxSectionText, false)
		}
		if len(fields) > MaxSectionFields {
			c.addf(path+".fields", "%d fields (limit %d)", len(fields), MaxSectionFields)
		}
		for i, f := range fields {
			c.text(fmt.Sprintf("%s.fields[%d]", path, i), f, MaxFieldText, false)
		}
		if acc, present := bm["accessory"]; present && acc != nil {
			c.element(path+".accessory", acc)
		}
	case "header":
		c.text(path+".text", bm["text"], MaxHeaderText, true)
	case "context":
		elems, _ := bm["elements"].([]any)
		if len(elems) == 0 {
			c.addf(path+".elements", "a context block needs elements")
		}
		if len(elems) > MaxContextElements {
			c.addf(path+".elements", "%d elements (limit %d)", len(elems), MaxContextElements)
		}
		for i, e := range elems {
			ep := fmt.Sprintf("%s.elements[%d]", path, i)
			if em, _ := e.(map[string]any); em != nil && em["type"] == "image" {
				continue
			}
			c.text(ep, e, MaxSectionText, false)
		}
	case "actions":
		elems, _ := bm["elements"].([]any)
		if len(elems) == 0 {
			c.addf(path+".elements", "an actions block needs elements")
		}
		if len(elems) > MaxActionsElements {
			c.addf(path+".elements", "%d elements (limit %d)", len(elems), MaxActionsElements)
		}
		for i, e := range elems {
			c.element(fmt.Sprintf("%s.elements[%d]", path, i), e)
		}
	case "input":
		c.text(path+".label", bm["label"], MaxInputLabel, true)
		if h, present := bm["hint"]; present && h != nil {
			c.text(path+".hint", h, MaxInputLabel, true)
		}
		if e, present := bm["element"]; !present || e == nil {
			c.addf(path+".element", "an input block needs an element")
		} else {
			c.element(path+".element", e)
		}
	}
}

// text checks a composition text object.
func (c *checker) text(path string, t any, limit int, plainOnly bool) {
	tm, ok := t.(map[string]any)
	if !ok {
		if t == nil {
			c.addf(path, "text object is missing")
		} else {
			c.addf(path, "is a %T, not a text object", t)
		}
		return
	}
	switch typ := str(tm, "type"); typ {
	case "plain_text":
	case "mrkdwn":
		if plainOnly {
			c.addf(path+".type", "must be plain_text, not mrkdwn")
		}
	default:
		c.addf(path+".type", "%q is not a valid text object type (plain_text or mrkdwn)", typ)
	}
	s, isStr := tm["text"].(string)
	if !isStr || s == "" {
		c.addf(path+".text", "text must be a non-empty string")
		return
	}
	c.maxLen(path+".text", s, limit)
}

// element checks an interactive element (button, selects, inputs, ...).
func (c *checker) element(path string, e any) {
	em, ok := e.(map[string]any)
	if !ok {
		c.addf(path, "is a %T, not an element", e)
		return
	}
	typ := str(em, "type")
	if typ == "" {
		c.addf(path, "element has no type")
		return
	}
	path = fmt.Sprintf("%s (%s)", path, typ)
	c.maxLen(path+".action_id", str(em, "action_id"), MaxID)
	if p, present := em["placeholder"]; present && p != nil {
		c.text(path+".placeholder", p, MaxPlaceholder, true)
	}
	if cf, present := em["confirm"]; present && cf != nil {
		c.confirm(path+".confirm", cf)
	}
	switch typ {
	case "button":
		c.text(path+".text", em["text"], MaxButtonText, true)
		c.maxLen(path+".value", str(em, "value"), MaxButtonValue)
		c.maxLen(path+".url", str(em, "url"), MaxURL)
		if st := str(em, "style"); st != "" && st != "primary" && st != "danger" {
			c.addf(path+".style", "%q is not primary or danger", st)
		}
	case "image":
		// image elements have no text.
	default:
		opts, _ := em["options"].([]any)
		if len(opts) > MaxOptions {
			c.addf(path+".options", "%d options (limit %d)", len(opts), MaxOptions)
		}
		for i, o := range opts {
			op := fmt.Sprintf("%s.options[%d]", path, i)
			om, _ := o.(map[string]any)
			if om == nil {
				c.addf(op, "is not an option object")
				continue
			}
			c.text(op+".text", om["text"], MaxOptionText, false)
			c.maxLen(op+".value", str(om, "value"), MaxOptionValue)
		}
	}
}

func (c *checker) confirm(path string, cf any) {
	cm, ok := cf.(map[string]any)
	if !ok {
		c.addf(path, "is not a confirm object")
		return
	}
	c.text(path+".title", cm["title"], 100, true)
	c.text(path+".text", cm["text"], 300, false)
	c.text(path+".confirm", cm["confirm"], 30, true)
	c.text(path+".deny", cm["deny"], 30, true)
}
