//go:build !unix

package agent

// dirUID: there is no proc filesystem to read owners from.
func dirUID(string) (string, bool) { return "", false }
