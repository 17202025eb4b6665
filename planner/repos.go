package planner

import "strings"

// launchRepo is the repository a launch line serves: the one the asker
// named (Job.Repo), else the model's (repoID), or its instruction-tuned
// sibling when that was named (Job.Instruct).
func launchRepo(j Job) string {
	if j.Repo != "" {
		return j.Repo
	}
	r := repoID(j.Model)
	if !j.Instruct || r == "<model>" {
		return r
	}
	return instructRepo(r)
}

// instructRepo names the instruction-tuned repository beside a base one,
// by each publisher's naming on the Hugging Face Hub: Qwen2.5 and Llama 3
// add "-Instruct" (Qwen3's plain name is already the post-trained model,
// its base "-Base"); Llama 2 puts "-chat" before "-hf"; Mistral puts
// "-Instruct" before the version ("Mistral-7B-Instruct-v0.1") or in
// place of "-Base"; Gemma adds "-it" (Gemma 3 in place of "-pt"). A name
// already instruction-tuned, or another publisher's, is kept.
func instructRepo(repo string) string {
	org, name, ok := strings.Cut(repo, "/")
	low := strings.ToLower(name)
	if !ok || strings.Contains(low, "instruct") || strings.Contains(low, "chat") || strings.HasSuffix(low, "-it") {
		return repo
	}
	switch org {
	case "Qwen":
		if strings.HasPrefix(name, "Qwen3") {
			return org + "/" + strings.TrimSuffix(name, "-Base")
		}
		return repo + "-Instruct"
	case "meta-llama":
		if n, ok := strings.CutSuffix(name, "-hf"); ok {
			return org + "/" + n + "-chat-hf"
		}
		return repo + "-Instruct"
	case "mistralai":
		if strings.Contains(name, "-Base-") {
			return org + "/" + strings.Replace(name, "-Base-", "-Instruct-", 1)
		}
		if i := strings.LastIndex(name, "-v0."); i > 0 {
			return org + "/" + name[:i] + "-Instruct" + name[i:]
		}
		return repo + "-Instruct"
	case "google":
		if !strings.HasPrefix(low, "gemma") {
			return repo
		}
		if n, ok := strings.CutSuffix(name, "-pt"); ok {
			return org + "/" + n + "-it"
		}
		return repo + "-it"
	}
	return repo
}
