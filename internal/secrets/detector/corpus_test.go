package detector_test

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// familyCase is one text of the project's own corpus: a credential of a
// family the added rules cover (rule set), or a look-alike that is safe to
// commit (rule ""). Values are generated at run time: the repository holds
// no credential-shaped literal.
type familyCase struct {
	family, name, text string
	// rules: any one of them must find the text ("" = nothing may be found).
	// gitleaks keeps one finding per secret, preferring a specific rule to
	// generic-api-key, so a keyword-anchored value is found by whichever of
	// the two applies.
	rules string
}

// pem assembles a PEM block at run time (no key header in the source).
func pem(kind, body string) string {
	return "-----BEGIN " + kind + "-----\n" + body + "\n-----END " + kind + "-----"
}

// ownCorpus is the project's corpus: positives per added family and the
// look-alikes that must pass (templates, .env.example, sealed and
// SOPS-encrypted values, placeholders, hashes, UUIDs, ids, test fixtures).
func ownCorpus() []familyCase {
	r := secrettest.NewRand(15)
	an := func(n int) string { return r.From(secrettest.Alnum, n) }
	lan := func(n int) string { return r.From(secrettest.LowerAlnum, n) }
	hx := func(n int) string { return r.From(secrettest.Hex, n) }
	b64 := func(n int) string { return r.From(secrettest.Alnum+"+/", n) }
	b64u := func(n int) string { return r.From(secrettest.Base64URL, n) }
	// key: a random key with at least two digits and two letters.
	key := func(n int) string { return "a7" + an(n-4) + "9Q" }
	uuid := func() string { return hx(8) + "-" + hx(4) + "-" + hx(4) + "-" + hx(4) + "-" + hx(12) }
	jwtPart := func(n int) string { return "eyJ" + b64u(n) }
	kw := "keyword-assigned-secret|generic-api-key"
	return []familyCase{
		// Keyword-anchored keys: a service or credential name, an assignment, a random value.
		{"keyword", "env file", "ACME_API_KEY=" + key(32), kw},
		{"keyword", "env file, service token", "WIDGETLY_TOKEN=" + key(40), kw},
		{"keyword", "yaml", "api:\n  base_url: https://api.acme.io\n  acme_secret: \"" + key(36) + "\"\n", kw},
		{"keyword", "json", `{"service": "acme", "apiKey": "` + key(32) + `"}`, kw},
		{"keyword", "go", "\tacmeKey := \"" + key(48) + "\"\n", kw},
		{"keyword", "python", "ACME_CLIENT_SECRET = '" + key(40) + "'\n", kw},
		{"keyword", "shell export", "export WIDGET_PASSWORD='" + key(20) + "'", kw},
		{"keyword", "header pair", `req.Header.Set("X-Acme-Key", "` + key(40) + `")`, kw},
		{"keyword", "log line", "[DEBUG] Using API_KEY=" + key(32), kw},
		{"keyword", "long token", "widget token = '" + key(240) + "'", kw},
		{"keyword", "xml jenkins", "<com.cloudbees.plugins.credentials.impl.StringCredentialsImpl>\n  <secret>{AQAAABAAAAAQ" + b64(60) + "}</secret>\n</com.cloudbees.plugins.credentials.impl.StringCredentialsImpl>", "xml-secret-element"},
		{"keyword", "xml maven", "<server>\n  <id>central</id>\n  <password>" + key(24) + "</password>\n</server>", "xml-secret-element"},
		{"keyword", "authorization header", `curl -H "Authorization: Bearer ` + key(40) + `" https://api.acme.io/v1/me`, "authorization-header-token|curl-auth-header"},
		{"keyword", "bearer in code", `token := "Bearer ` + key(30) + `"`, "authorization-header-token|" + kw},

		// Prefixed tokens.
		{"prefixed", "bitbucket app password", "BITBUCKET_APP_PASSWORD=ATBB" + an(32), "prefixed-service-token|" + kw},
		{"prefixed", "appsync key", `const key = "da2-` + lan(26) + `";`, "prefixed-service-token"},
		{"prefixed", "launchdarkly sdk key", "sdk-" + lan(8) + "-" + lan(4) + "-" + lan(4) + "-" + lan(4) + "-" + lan(12), "prefixed-service-token"},
		{"prefixed", "apify token", "apify_api_" + an(36), "prefixed-service-token"},
		{"prefixed", "docker hub pat", "DOCKER_TOKEN=dckr_pat_" + b64u(27), "docker-hub-pat"},

		// URLs with credentials or tokens.
		{"url", "postgres on a real host", "DATABASE_URL=postgres://app:" + an(20) + "@db.prod.internal:5432/app", "database-url-password"},
		{"url", "weak password on a real host", "postgres://app:app@app-db.cluster-" + lan(12) + ".eu-west-1.rds.amazonaws.com/app", "database-url-password"},
		{"url", "mongodb srv", "mongodb+srv://svc:" + an(16) + "@cluster0." + lan(5) + ".mongodb.net/prod", "database-url-password"},
		{"url", "redis", "REDIS_URL=rediss://:" + an(32) + "@cache.acme.io:6380/0", "database-url-password"},
		{"url", "amqp", "amqps://worker:" + an(18) + "@mq.acme.io/vhost", "database-url-password"},
		{"url", "https basic auth", "git clone https://deploy:" + an(24) + "@git.acme.io/team/repo.git", "url-password"},
		{"url", "ftp", "ftp://backup:" + an(14) + "@files.acme.io/dumps", "url-password"},
		{"url", "jdbc", "jdbc:sqlserver://sql.acme.io:1433;databaseName=app;user=svc;password=" + an(16) + ";", "connection-string-password"},
		{"url", "ado.net", `"Server=tcp:sql.acme.io,1433;Database=app;User ID=svc;Password=` + an(18) + `;Encrypt=True;"`, "connection-string-password"},
		{"url", "query api key", `fetch("https://api.acme.io/v2/search?q=cats&api_key=` + key(32) + `")`, "url-query-credential"},
		{"url", "discord webhook", "https://discord.com/api/webhooks/" + r.From("0123456789", 18) + "/" + b64u(68), "webhook-url|discord-webhook"},
		{"url", "zapier webhook", "https://hooks.zapier.com/hooks/catch/" + r.From("0123456789", 7) + "/" + lan(6) + "/", "webhook-url"},
		{"url", "slack webhook", "https://hooks.slack.com/services/T" + r.From("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 8) + "/B" + r.From("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10) + "/" + an(24), "slack-webhook-url"},

		// JWTs with a signature.
		{"jwt", "signed jwt", `const t = "` + jwtPart(30) + "." + jwtPart(60) + "." + b64u(43) + `";`, "jwt"},

		// Private keys in every form.
		{"private-key", "pkcs8", pem("PRIVATE"+" KEY", b64(64)+"\n"+b64(64)+"\n"+b64(40)), "private-key"},
		{"private-key", "openssh", pem("OPENSSH PRIVATE"+" KEY", b64(70)+"\n"+b64(70)+"\n"+b64(30)), "private-key"},
		{"private-key", "encrypted pkcs8", pem("ENCRYPTED PRIVATE"+" KEY", b64(64)+"\n"+b64(64)), "private-key"},
		{"private-key", "putty", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\nPublic-Lines: 2\n" + b64(64) + "\n" + b64(20) + "\nPrivate-Lines: 1\n" + b64(44) + "\nPrivate-MAC: " + hx(64) + "\n", "putty-private-key"},
		{"private-key", "jwk", `{"kty":"EC","crv":"P-256","x":"` + b64u(43) + `","y":"` + b64u(43) + `","d":"` + b64u(43) + `"}`, "jwk-private-key"},
		{"private-key", "docker config auth", `{"auths":{"registry.acme.io":{"auth":"` + base64.StdEncoding.EncodeToString([]byte("ci:"+an(20))) + `"}}}`, "docker-config-auth"},

		// --- Look-alikes: safe to commit ---
		// Templates and placeholders.
		{"template", ".env.example", "DATABASE_URL=postgres://app:app@localhost:5432/app\nREDIS_URL=redis://localhost:6379/0\nAPI_KEY=your-api-key-here\nSECRET_KEY=changeme\n", ""},
		{"template", ".env.dist compose", "DATABASE_URL=postgresql://postgres:postgres@db:5432/app_dev\nAMQP_URL=amqp://guest:guest@rabbitmq:5672/\nMONGO_URL=mongodb://root:example@mongo:27017/\n", ""},
		{"template", "docs url", "Connect with postgres://user:password@host:5432/dbname or https://user:password@example.com/", ""},
		{"template", "local mysql", "mysql://root:root@127.0.0.1:3306/test", ""},
		{"template", "env references", "DATABASE_URL=postgres://app:${DB_PASSWORD}@db.prod.internal/app\nAPI_KEY=${ACME_API_KEY}\nTOKEN=$GITHUB_TOKEN\n", ""},
		{"template", "github actions secrets", "env:\n  ACME_API_KEY: ${{ secrets.ACME_API_KEY }}\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n", ""},
		{"template", "helm values", "apiKey: {{ .Values.acme.apiKey | quote }}\npassword: {{ required \"password\" .Values.password }}\n", ""},
		{"template", "k8s secretKeyRef", "env:\n  - name: API_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: acme-credentials\n        key: api-token\n", ""},
		{"template", "code reads env", "api_key = os.environ[\"ACME_API_KEY\"]\ntoken := os.Getenv(\"ACME_TOKEN\")\nconst secret = process.env.ACME_SECRET;\n", ""},
		{"template", "masked", "API_KEY=****************\nPASSWORD=xxxxxxxxxxxx\nTOKEN=<token>\n", ""},
		{"template", "placeholder key", `ACME_API_KEY="YOUR_API_KEY_1234567890"`, ""},
		{"template", "xml placeholder", "<password>${env.DEPLOY_PASSWORD}</password>\n<token>changeme</token>", ""},

		// Encrypted for committing.
		{"encrypted", "sealed secret", "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nspec:\n  encryptedData:\n    api_key: AgB" + b64(720) + "==\n    password: AgC" + b64(690) + "=\n", ""},
		{"encrypted", "sops yaml", "api_key: ENC[AES256_GCM,data:" + b64(44) + "=,iv:" + b64(43) + "=,tag:" + b64(22) + "==,type:str]\nsops:\n  lastmodified: \"2024-05-01T10:00:00Z\"\n  mac: ENC[AES256_GCM,data:" + b64(88) + "=,iv:" + b64(43) + "=,tag:" + b64(22) + "==,type:str]\n", ""},
		{"encrypted", "sops dotenv", "ACME_TOKEN=ENC[AES256_GCM,data:" + b64(40) + ",iv:" + b64(43) + "=,tag:" + b64(22) + "==,type:str]\n", ""},
		{"encrypted", "ansible vault", "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + hx(64) + "\n  " + hx(64) + "\n  " + hx(40) + "\n", ""},
		{"encrypted", "ansible vault file", "$ANSIBLE_VAULT;1.1;AES256\n" + hx(80) + "\n" + hx(80) + "\n" + hx(80) + "\n", ""},
		{"encrypted", "git-crypt file", "\x00GITCRYPT\x00" + r.From("\x01\x02\x7f\xfe\xc3\x80abc", 200), ""},

		// Public by design.
		{"public", "ssh public key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43) + " dev@laptop", ""},
		{"public", "certificate", pem("CERTIFICATE", b64(64)+"\n"+b64(64)+"\n"+b64(20)), ""},
		{"public", "public key pem", pem("PUBLIC"+" KEY", b64(64)+"\n"+b64(24)), ""},
		{"public", "jwk public", `{"kty":"RSA","e":"AQAB","use":"sig","kid":"` + hx(16) + `","n":"` + b64u(342) + `"}`, ""},
		{"public", "unsigned jwt", `const unsigned = "` + jwtPart(20) + "." + jwtPart(40) + `.";`, ""},
		{"public", "stripe publishable", "STRIPE_PUBLISHABLE_KEY=pk_live_" + an(99), ""},
		{"public", "public key name", "VAPID_PUBLIC_KEY=B" + b64u(86), ""},

		// Hashes and digests.
		{"hash", "package-lock integrity", `"integrity": "sha512-` + b64(86) + `=="`, ""},
		{"hash", "go.sum", "github.com/acme/lib v1.2.3 h1:" + b64(43) + "=\ngithub.com/acme/lib v1.2.3/go.mod h1:" + b64(43) + "=\n", ""},
		{"hash", "image digest", "image: ghcr.io/acme/app@sha256:" + hx(64), ""},
		{"hash", "git sha", "commit " + hx(40) + "\nMerge: " + hx(7) + " " + hx(7) + "\n", ""},
		{"hash", "checksum file", hx(64) + "  acme-linux-amd64.tar.gz\n" + hx(64) + "  acme-darwin-arm64.tar.gz\n", ""},
		{"hash", "bcrypt hash", "password_hash: \"$2b$12$" + r.From(secrettest.Alnum+"./", 53) + "\"", ""},
		{"hash", "etag", `ETag: "` + hx(32) + `"`, ""},
		{"hash", "key fingerprint", "key_fingerprint = \"SHA256:" + b64(43) + "\"", ""},

		// Ids.
		{"id", "uuid", "id: " + uuid() + "\ntenant_id: " + uuid() + "\n", ""},
		{"id", "request id", `{"request_id": "` + uuid() + `", "trace_id": "` + hx(32) + `"}`, ""},
		{"id", "aws arn", "arn:aws:iam::" + r.From("0123456789", 12) + ":role/deploy\n", ""},
		{"id", "key id", "ACME_KEY_ID=" + key(20) + "\nkey_name: deploy-" + hx(8) + "\n", ""},
		{"id", "google drive resource key", "https://drive.google.com/file/d/" + b64u(33) + "/view?usp=sharing&resourcekey=0-" + b64u(22), ""},
		{"id", "pagination cursor", `next_page_token: "` + key(40) + `"`, ""},
		{"id", "hex number", `{token.NUMBER, "0x` + hx(15) + `"}`, ""},
		{"id", "csrf token name", `<meta name="csrf-token" content="{{ csrf_token() }}">`, ""},

		// Code and test fixtures.
		{"code", "function call", "token = get_token(user_id=42, scope=\"read\")\nsecret = vault.read(\"kv/acme\")\n", ""},
		{"code", "member chain", "const apiKey = config.services.acme.apiKey;\npassword: this.form.value.password2,\n", ""},
		{"code", "fake test values", "password: \"test1234\"\ntoken: \"fake-token\"\napi_key: \"dummy-key-for-tests\"\n", ""},
		{"code", "tokenizer", "tokenizer = AutoTokenizer.from_pretrained(\"bert-base-uncased\")\nmax_tokens: 4096\n", ""},
		{"code", "keyboard keys", `keyboardShortcut: "Ctrl+Shift+K"` + "\nkeydown: handler2\n", ""},
		{"code", "version strings", `"version": "1.24.3",` + "\n" + `"engines": {"node": ">=20.0.0"}`, ""},
		{"code", "base64 image", `<img src="data:image/png;base64,` + b64(200) + `">`, ""},
		{"code", "password policy", "PASSWORD_MIN_LENGTH=12\npassword_regex: '^(?=.*[A-Z])(?=.*[0-9]).{12,}$'\n", ""},
	}
}

func TestOwnCorpus(t *testing.T) {
	s := secrettest.Builtin()
	for _, c := range ownCorpus() {
		t.Run(c.family+"/"+c.name, func(t *testing.T) {
			ids := ruleIDs(s.MustScan(c.text))
			if c.rules == "" {
				assert.Empty(t, ids, "nothing may be found")
				return
			}
			assert.True(t, slices.ContainsFunc(strings.Split(c.rules, "|"), func(id string) bool { return slices.Contains(ids, id) }),
				"want one of %s, found %v", c.rules, ids)
		})
	}
}

// TestScorecardOwnCorpus prints the project's own corpus as a scorecard:
// positives caught per family and look-alikes blocked (target ≤ 1%).
func TestScorecardOwnCorpus(t *testing.T) {
	cases := ownCorpus()
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	found := scanAll(texts)
	caught, total := map[string]int{}, map[string]int{}
	var blocked, lookalikes int
	for i, c := range cases {
		if c.rules == "" {
			lookalikes++
			if len(found[i]) > 0 {
				blocked++
			}
			continue
		}
		total[c.family]++
		if len(found[i]) > 0 {
			caught[c.family]++
		}
	}
	var parts []string
	for _, f := range slices.Sorted(maps.Keys(total)) {
		parts = append(parts, fmt.Sprintf("%s %d/%d", f, caught[f], total[f]))
	}
	scorecard("%-16s look-alikes blocked %.3f (%d/%d)  positives caught: %s", "own-corpus",
		float64(blocked)/float64(lookalikes), blocked, lookalikes, strings.Join(parts, ", "))
	require.LessOrEqual(t, float64(blocked)/float64(lookalikes), 0.01, "look-alikes blocked")
}

func ruleIDs(fs []secrets.Finding) []string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.RuleID)
	}
	return ids
}
