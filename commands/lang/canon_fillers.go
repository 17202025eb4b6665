package lang

import "strings"

// englishFillers are skipped: question words, verbs of asking, articles and
// pronouns. None of them is a keyword, so skipping never hides meaning.
var englishFillers = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`how would will it take takes taking to can could i we you my our me us
		do does did need needs needed is are was be been being what which whats what's much many if
		want wanna gonna like about roughly approx approximately around estimate estimated expect
		should shall may might let lets let's tell show give guess run running runs go get got
		hey hi hello pls plz thanks thank thx bot gpuplan quick question q possible possibly feasible
		doable work works okay ok enough fit fits will finish finished done complete completed
		so then just only also really actually still even there here that this these those it's
		full whole entire fine some any all every each kinda sort of typically usually about
		need required require requires requirement necessary go able be when where who whose
		on-prem onprem locally local box machine use uses used load loads loaded lol lmao haha hmm
		faster fastest cheapest cheaper cheap smallest smaller minimum number best better good recommend
		recommended suggest suggestion wondering curious try trying planning budget quick ok? total
		gpu gpus card cards hardware instance accelerator box boxes setup rig
		vram memory mem without w/o cost price rent rented renting chat instruct ran servers machines gives gave brings bring makes
		them dreaming am honestly tbh rn gonna wanna lemme kinda idk btw fyi asap
		cloud aws gcp azure runpod vastai free colab kaggle spare difference differences napkin math ballpark eta moe
		suffice suffices sufficient adequate internal external in-house inhouse`) {
		m[w] = true
	}
	// "of" and "on" are keywords the readers use; "take"/"took" too where
	// measured runs are read, so they are not fillers.
	for _, w := range []string{"of", "on", "took", "it"} {
		delete(m, w)
	}
	return m
}()

// silentWords are skipped without being listed.
var silentWords = map[string]bool{"a": true, "an": true, "the": true}
