package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuplan/gpuplan/commands"
	"github.com/gpuplan/gpuplan/i18n"
)

// The catalogue commands answer in the language --lang names, as their
// own subcommands and through gpuplan run (which carries the flag to the
// command the same way); a refusal too.
func TestCatalogueCommandsTakeLang(t *testing.T) {
	env := map[string]string{"GPUPLAN_DB": filepath.Join(t.TempDir(), "gpuplan.db"), "LANG": "en_US.UTF-8"}
	for _, tc := range []struct {
		args   []string
		ko, en string // the title in each language
	}{
		{[]string{"gpus"}, "GPU 카탈로그", "GPU catalogue"},
		{[]string{"models", "llama"}, "모델 카탈로그", "Model catalogue"},
		{[]string{"build", "4x rtx-4090"}, "4× GeForce RTX 4090 서버", "Server for 4× GeForce RTX 4090"},
		{[]string{"run", "gpus"}, "GPU 카탈로그", "GPU catalogue"},
		{[]string{"run", "models"}, "모델 카탈로그", "Model catalogue"},
	} {
		// gpuplan <cmd> --lang ko <args>, gpuplan run --lang ko "<cmd>"
		ko := append([]string{tc.args[0], "--lang", "ko"}, tc.args[1:]...)
		if code, out, errOut := runCLI(t, env, ko...); code != 0 || !strings.HasPrefix(out, tc.ko+"\n") {
			t.Errorf("%q --lang ko: exit %d, want the title %q:\n%.300s%s", tc.args, code, tc.ko, out, errOut)
		}
		if code, out, errOut := runCLI(t, env, tc.args...); code != 0 || !strings.HasPrefix(out, tc.en+"\n") {
			t.Errorf("%q in English: exit %d, want the title %q:\n%.300s%s", tc.args, code, tc.en, out, errOut)
		}
	}
	if code, _, errOut := runCLI(t, env, "build", "--lang", "ko", "4x nosuchgpu"); code == 0 ||
		!strings.Contains(errOut, "예: build 4x rtx-4090") {
		t.Errorf("build refusal in Korean: exit %d\n%s", code, errOut)
	}
}

// The terminal's line while a lost change is looked up is the commands'
// CheckingText in English.
func TestCheckingTextIsCommands(t *testing.T) {
	if got := commands.CheckingIn(i18n.For(i18n.EN)); got != commands.CheckingText {
		t.Errorf("commands.CheckingIn(en) = %q, commands.CheckingText = %q", got, commands.CheckingText)
	}
	if got := commands.CheckingIn(i18n.For(i18n.KO)); got == commands.CheckingText {
		t.Errorf("commands.CheckingIn(ko) is English: %q", got)
	}
}
