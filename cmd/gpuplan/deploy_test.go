package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpuplan/gpuplan/inventory"
	"github.com/gpuplan/gpuplan/planner"
	"go.yaml.in/yaml/v3"
)

const deployDir = "../../deploy"

// node walks decoded YAML: node(v, "a", "b", 0) is v["a"]["b"][0], nil
// when any step is missing.
func node(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func str(v any, path ...any) string {
	switch x := node(v, path...).(type) {
	case string:
		return x
	case int:
		return strconv.Itoa(x)
	}
	return ""
}

// yamlDocs decodes every document of a YAML file.
func yamlDocs(t *testing.T, path string) []map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	var out []map[string]any
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if doc != nil {
			out = append(out, doc)
		}
	}
}

// drainDefault is serve's --drain-timeout when nobody sets it.
func drainDefault(t *testing.T) time.Duration {
	t.Helper()
	c, err := parseServeFlags("serve", nil, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return c.bot.DrainTimeout
}

// httpPort is the port serve listens on by default.
func httpPort(t *testing.T) string {
	t.Helper()
	_, port, err := net.SplitHostPort(defaultHTTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// checkServeEnv checks the variables a deploy file sets for `gpuplan
// serve`: each is one serve reads, and no secret has a value inline.
func checkServeEnv(t *testing.T, where string, env map[string]string) {
	t.Helper()
	for k, v := range env {
		s, ok := settingFor(k)
		switch {
		case !ok:
			t.Errorf("%s sets %s, which gpuplan never reads (Settings, cmd/gpuplan/envvars.go)", where, k)
		case !slices.Contains(s.Commands, "serve"):
			t.Errorf("%s sets %s for serve, which only %v read", where, k, s.Commands)
		case s.Secret && v != "":
			t.Errorf("%s has %s inline: secrets come from the env file or a Secret", where, k)
		}
	}
	if a := env["GPUPLAN_HTTP_ADDR"]; a != "" {
		if _, port, err := net.SplitHostPort(a); err != nil || port != httpPort(t) {
			t.Errorf("%s: GPUPLAN_HTTP_ADDR %q, the probes expect port %s", where, a, httpPort(t))
		}
	}
}

func TestComposeFile(t *testing.T) {
	docs := yamlDocs(t, filepath.Join(deployDir, "compose.yaml"))
	if len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
	c := docs[0]
	redisCmd := strings.Join(func() []string {
		var out []string
		for _, a := range node(c, "services", "redis", "command").([]any) {
			out = append(out, a.(string))
		}
		return out
	}(), " ")
	for _, flag := range []string{"--appendonly yes", "--appendfsync everysec", "--maxmemory-policy noeviction"} {
		if !strings.Contains(redisCmd, flag) {
			t.Errorf("redis command %q lacks %s", redisCmd, flag)
		}
	}
	if vols, _ := node(c, "services", "redis", "volumes").([]any); len(vols) == 0 || !strings.HasSuffix(vols[0].(string), ":/data") {
		t.Errorf("redis keeps its data in a volume at /data, got %v", vols)
	}
	if vols, _ := node(c, "volumes").(map[string]any); vols == nil || !hasKey(vols, strings.Split(str(c, "services", "redis", "volumes", 0), ":")[0]) {
		t.Error("redis's volume is not a declared named volume")
	}

	bot := node(c, "services", "bot")
	if str(bot, "deploy", "replicas") != "2" {
		t.Errorf("bot replicas %q, want 2", str(bot, "deploy", "replicas"))
	}
	if cmd := node(bot, "command"); !slices.Equal(toStrings(cmd), []string{"serve"}) {
		t.Errorf("bot command %v", cmd)
	}
	if ef := toStrings(node(bot, "env_file")); !slices.Equal(ef, []string{"gpuplan.env"}) {
		t.Errorf("env_file %v, want gpuplan.env", ef)
	}
	if _, err := os.Stat(filepath.Join(deployDir, "gpuplan.env.example")); err != nil {
		t.Error("gpuplan.env has no example to copy")
	}
	env := map[string]string{}
	for k, v := range node(bot, "environment").(map[string]any) {
		env[k], _ = v.(string)
	}
	checkServeEnv(t, "compose.yaml", env)
	if !strings.HasPrefix(env["REDIS_URL"], "redis://redis:") {
		t.Errorf("REDIS_URL %q does not point at the redis service", env["REDIS_URL"])
	}
	mounted := false
	for _, v := range toStrings(node(bot, "volumes")) {
		parts := strings.Split(v, ":")
		mounted = mounted || len(parts) >= 2 && parts[1] == env["GPUPLAN_SERVERS"] && strings.HasSuffix(parts[0], "servers.yaml")
	}
	if !mounted {
		t.Errorf("servers.yaml is not mounted at GPUPLAN_SERVERS (%s)", env["GPUPLAN_SERVERS"])
	}
	if r := str(bot, "restart"); r != "unless-stopped" && r != "always" {
		t.Errorf("bot restart policy %q", r)
	}
	if r := str(c, "services", "redis", "restart"); r == "" || r == "no" {
		t.Errorf("redis restart policy %q", r)
	}
	grace, err := time.ParseDuration(str(bot, "stop_grace_period"))
	if err != nil || grace <= drainDefault(t) {
		t.Errorf("stop_grace_period %q must exceed the drain timeout (%v)", str(bot, "stop_grace_period"), drainDefault(t))
	}
	hc := toStrings(node(bot, "healthcheck", "test"))
	if len(hc) < 3 || hc[0] != "CMD" || hc[1] != "/gpuplan" || hc[2] != "healthcheck" || !slices.Contains(hc, healthPath) {
		t.Errorf("healthcheck %v: want the binary asking %s (the image has no shell or curl)", hc, healthPath)
	}
	if node(bot, "read_only") != true {
		t.Error("the bot's root filesystem should be read-only")
	}
	if node(bot, "depends_on", "redis", "condition") != "service_healthy" {
		t.Error("the bots should wait for a healthy Redis")
	}
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func toStrings(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// k8sObjects decodes every manifest the kustomization lists, by kind.
func k8sObjects(t *testing.T) (map[string]map[string]any, []string) {
	t.Helper()
	dir := filepath.Join(deployDir, "k8s")
	kust := yamlDocs(t, filepath.Join(dir, "kustomization.yaml"))[0]
	resources := toStrings(kust["resources"])
	objs := map[string]map[string]any{}
	for _, r := range resources {
		for _, doc := range yamlDocs(t, filepath.Join(dir, r)) {
			kind, _ := doc["kind"].(string)
			if _, dup := objs[kind]; dup {
				t.Errorf("two %s objects; the test expects one", kind)
			}
			objs[kind] = doc
		}
	}
	return objs, resources
}

func TestKubernetesManifests(t *testing.T) {
	objs, resources := k8sObjects(t)
	for _, kind := range []string{"Deployment", "PodDisruptionBudget", "ConfigMap", "Namespace"} {
		if objs[kind] == nil {
			t.Fatalf("the kustomization (%v) has no %s", resources, kind)
		}
	}
	if objs["Secret"] != nil {
		t.Error("the kustomization applies a Secret: tokens must not live in deploy/k8s")
	}
	d := objs["Deployment"]
	if r := str(d, "spec", "replicas"); r != "2" {
		t.Errorf("replicas %s, want 2", r)
	}
	pod := node(d, "spec", "template", "spec")
	if len(node(pod, "containers").([]any)) != 1 {
		t.Fatal("want one container")
	}
	ctr := node(pod, "containers", 0)
	if !slices.Equal(toStrings(node(ctr, "args")), []string{"serve"}) {
		t.Errorf("args %v", node(ctr, "args"))
	}

	// The probes ask the paths serve serves, on the port it listens on.
	ports := map[string]string{}
	for _, p := range node(ctr, "ports").([]any) {
		ports[str(p, "name")] = str(p, "containerPort")
	}
	for probe, path := range map[string]string{"readinessProbe": readyPath, "livenessProbe": healthPath} {
		if got := str(ctr, probe, "httpGet", "path"); got != path {
			t.Errorf("%s path %q, want %q", probe, got, path)
		}
		port := str(ctr, probe, "httpGet", "port")
		if named, ok := ports[port]; ok {
			port = named
		}
		if port != httpPort(t) {
			t.Errorf("%s port %q, serve listens on %s", probe, port, httpPort(t))
		}
	}

	grace, _ := strconv.Atoi(str(pod, "terminationGracePeriodSeconds"))
	if time.Duration(grace)*time.Second <= drainDefault(t) {
		t.Errorf("terminationGracePeriodSeconds %d must exceed the drain timeout (%v)", grace, drainDefault(t))
	}
	if node(pod, "securityContext", "runAsNonRoot") != true {
		t.Error("the pod must run as non-root")
	}
	if node(ctr, "securityContext", "readOnlyRootFilesystem") != true || node(ctr, "securityContext", "allowPrivilegeEscalation") != false {
		t.Error("the container needs a read-only root filesystem and no privilege escalation")
	}
	if str(ctr, "resources", "requests", "memory") == "" || str(ctr, "resources", "limits", "memory") == "" {
		t.Error("the container has no memory request and limit")
	}

	env := map[string]string{}
	for _, e := range node(ctr, "env").([]any) {
		env[str(e, "name")] = str(e, "value")
	}
	checkServeEnv(t, "deployment.yaml", env)

	// The servers ConfigMap is mounted where GPUPLAN_SERVERS points and
	// is an inventory the binary accepts.
	cm := objs["ConfigMap"]
	var mountDir, cmVolume string
	for _, v := range node(pod, "volumes").([]any) {
		if str(v, "configMap", "name") == str(cm, "metadata", "name") {
			cmVolume = str(v, "name")
		}
	}
	for _, m := range node(ctr, "volumeMounts").([]any) {
		if str(m, "name") == cmVolume {
			mountDir = str(m, "mountPath")
		}
	}
	if mountDir == "" || filepath.Dir(env["GPUPLAN_SERVERS"]) != mountDir {
		t.Errorf("GPUPLAN_SERVERS %q is not in the ConfigMap's mount (%q)", env["GPUPLAN_SERVERS"], mountDir)
	}
	inv := str(cm, "data", filepath.Base(env["GPUPLAN_SERVERS"]))
	if parsed, err := inventory.Parse(planner.DefaultCatalog(), []byte(inv), "configmap.yaml"); err != nil || len(parsed.Servers) == 0 {
		t.Errorf("the ConfigMap's servers.yaml does not load: %v", err)
	}

	// The Secret example carries the secrets by name, with placeholders.
	secrets := yamlDocs(t, filepath.Join(deployDir, "k8s", "secret.example.yaml"))
	if len(secrets) != 1 || secrets[0]["kind"] != "Secret" {
		t.Fatal("secret.example.yaml should be one Secret")
	}
	sec := secrets[0]
	if from := str(ctr, "envFrom", 0, "secretRef", "name"); from != str(sec, "metadata", "name") {
		t.Errorf("envFrom secret %q, the example is %q", from, str(sec, "metadata", "name"))
	}
	secretEnv := map[string]string{}
	for k, v := range node(sec, "stringData").(map[string]any) {
		secretEnv[k], _ = v.(string)
		if s, ok := settingFor(k); ok && s.Secret && !strings.Contains(secretEnv[k], "replace-me") {
			t.Errorf("secret.example.yaml: %s is not a placeholder", k)
		}
	}
	for _, must := range []string{"SLACK_APP_TOKEN", "SLACK_BOT_TOKEN"} {
		if _, ok := secretEnv[must]; !ok {
			t.Errorf("secret.example.yaml lacks %s", must)
		}
	}
	for k := range secretEnv {
		if s, ok := settingFor(k); !ok || !slices.Contains(s.Commands, "serve") {
			t.Errorf("secret.example.yaml sets %s, which serve does not read", k)
		}
	}

	pdb := objs["PodDisruptionBudget"]
	if str(pdb, "spec", "minAvailable") != "1" {
		t.Errorf("PDB minAvailable %q, want 1", str(pdb, "spec", "minAvailable"))
	}
	podLabels := node(d, "spec", "template", "metadata", "labels").(map[string]any)
	for k, v := range node(pdb, "spec", "selector", "matchLabels").(map[string]any) {
		if podLabels[k] != v {
			t.Errorf("the PDB selects %s=%v, which the pods lack", k, v)
		}
	}
	if svc := objs["Service"]; svc != nil {
		if p := str(svc, "spec", "ports", 0, "targetPort"); p != "http" && p != httpPort(t) {
			t.Errorf("service targetPort %q", p)
		}
	}

	readme, err := os.ReadFile(filepath.Join(deployDir, "k8s", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"REDIS_URL", "REDIS_SENTINEL_ADDRS", "REDIS_MASTER_NAME", "REDIS_PASSWORD", "noeviction"} {
		if !bytes.Contains(readme, []byte(v)) {
			t.Errorf("k8s/README.md does not explain %s", v)
		}
	}
	for _, r := range append(resources, "secret.example.yaml") {
		if !bytes.Contains(readme, []byte(r)) {
			t.Errorf("k8s/README.md does not list %s", r)
		}
	}
}

// Every variable an env-file example under deploy/ sets is one the
// binary reads.
func TestEnvExamplesAreRead(t *testing.T) {
	examples, _ := filepath.Glob(filepath.Join(deployDir, "*.env.example"))
	more, _ := filepath.Glob(filepath.Join(deployDir, "*", "*.env.example"))
	examples = append(examples, more...)
	if len(examples) == 0 {
		t.Fatal("no env examples found")
	}
	for _, path := range examples {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "#"))
			k, _, ok := strings.Cut(line, "=")
			if !ok || !envName.MatchString(k) {
				continue
			}
			if _, ok := settingFor(k); !ok {
				t.Errorf("%s sets %s, which gpuplan never reads", path, k)
			}
		}
		f.Close()
	}
	// The bot's env file feeds serve (compose's env_file).
	raw, _ := os.ReadFile(filepath.Join(deployDir, "gpuplan.env.example"))
	env := map[string]string{}
	for _, l := range strings.Split(string(raw), "\n") {
		if k, _, ok := strings.Cut(strings.TrimSpace(l), "="); ok && !strings.HasPrefix(k, "#") {
			env[k] = ""
		}
	}
	checkServeEnv(t, "gpuplan.env.example", env)
}
