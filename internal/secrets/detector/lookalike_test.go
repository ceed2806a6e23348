package detector_test

import (
	"encoding/base64"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// The look-alike generator (issue 26): ordinary writes and commands that
// only look secret — hashes and checksums, UUIDs, base64 of ordinary data,
// public keys and certificates, minified identifiers, test placeholders,
// environment references, ciphertext and public ids. Every value is made at
// run time from a fixed seed, in the shape the real thing has; none is
// copied from another project. A false block costs the user's trust as a
// missed secret does: the scorecard fails above 1% blocked.

// lookalikeVariants is how many texts each template makes (different
// random values, names and versions each time).
const lookalikeVariants = 4

// lookalike is one generated text and the class it stands for.
type lookalike struct{ class, name, text string }

// lookalikeGen draws the values the templates need.
type lookalikeGen struct{ r *secrettest.Rand }

func (g lookalikeGen) hex(n int) string  { return g.r.From(secrettest.Hex, n) }
func (g lookalikeGen) an(n int) string   { return g.r.From(secrettest.Alnum, n) }
func (g lookalikeGen) lan(n int) string  { return g.r.From(secrettest.LowerAlnum, n) }
func (g lookalikeGen) b64(n int) string  { return g.r.From(secrettest.Alnum+"+/", n) }
func (g lookalikeGen) b64u(n int) string { return g.r.From(secrettest.Base64URL, n) }
func (g lookalikeGen) dig(n int) string  { return g.r.From("0123456789", n) }
func (g lookalikeGen) upper(n int) string {
	return g.r.From("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", n)
}

func (g lookalikeGen) uuid() string {
	return g.hex(8) + "-" + g.hex(4) + "-4" + g.hex(3) + "-" + g.r.From("89ab", 1) + g.hex(3) + "-" + g.hex(12)
}

func (g lookalikeGen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g lookalikeGen) word() string {
	return g.pick("orders", "billing", "checkout", "invoice", "catalog", "search", "users", "reports",
		"gateway", "worker", "ledger", "media", "notify", "auth", "profile", "cart", "metrics", "audit")
}

func (g lookalikeGen) version() string {
	return fmt.Sprintf("%d.%d.%d", g.r.Intn(5), g.r.Intn(30), g.r.Intn(20))
}

// sha512 is the base64 of 64 bytes (an npm integrity value).
func (g lookalikeGen) sha512() string { return g.b64(86) + "==" }

// sha256b64 is the base64 of 32 bytes (go.sum, SRI, Nix).
func (g lookalikeGen) sha256b64() string { return g.b64(43) + "=" }

// sentence is ordinary English text, for base64 of ordinary data.
func (g lookalikeGen) sentence() string {
	var ws []string
	for range 6 + g.r.Intn(10) {
		ws = append(ws, g.pick("the", "service", "returns", "a", "list", "of", "orders", "for", "each",
			"customer", "sorted", "by", "date", "and", "status", "report", "weekly", "summary", "build", "passed"))
	}
	return strings.Join(ws, " ") + "."
}

func (g lookalikeGen) b64of(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// lines wraps s into lines of w characters.
func lines(s string, w int) string {
	var b []string
	for len(s) > w {
		b = append(b, s[:w])
		s = s[w:]
	}
	return strings.Join(append(b, s), "\n")
}

type lookalikeTemplate struct {
	class, name string
	make        func(g lookalikeGen) string
}

func lookalikeTemplates() []lookalikeTemplate {
	return []lookalikeTemplate{
		// Hashes and checksums.
		{"hash", "go.sum", func(g lookalikeGen) string {
			m := "github.com/" + g.word() + "/" + g.word() + " v" + g.version()
			return m + " h1:" + g.sha256b64() + "\n" + m + "/go.mod h1:" + g.sha256b64() + "\n"
		}},
		{"hash", "package-lock integrity", func(g lookalikeGen) string {
			p := g.word()
			return `    "node_modules/` + p + `": {` + "\n      \"version\": \"" + g.version() + "\",\n      \"resolved\": \"https://registry.npmjs.org/" + p + "/-/" + p + "-1.0.0.tgz\",\n      \"integrity\": \"sha512-" + g.sha512() + "\"\n    },"
		}},
		{"hash", "yarn.lock", func(g lookalikeGen) string {
			return g.word() + "@^" + g.version() + ":\n  version \"" + g.version() + "\"\n  resolved \"https://registry.yarnpkg.com/x/-/x-1.0.0.tgz#" + g.hex(40) + "\"\n  integrity sha512-" + g.sha512() + "\n"
		}},
		{"hash", "Cargo.lock", func(g lookalikeGen) string {
			return "[[package]]\nname = \"" + g.word() + "\"\nversion = \"" + g.version() + "\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"" + g.hex(64) + "\"\n"
		}},
		{"hash", "poetry.lock", func(g lookalikeGen) string {
			return "files = [\n    {file = \"" + g.word() + "-" + g.version() + "-py3-none-any.whl\", hash = \"sha256:" + g.hex(64) + "\"},\n]\n"
		}},
		{"hash", "pip --hash", func(g lookalikeGen) string {
			return g.word() + "==" + g.version() + " \\\n    --hash=sha256:" + g.hex(64) + "\n"
		}},
		{"hash", "git sha in a command", func(g lookalikeGen) string {
			return g.pick("git checkout ", "git cherry-pick ", "git revert --no-edit ", "git show --stat ", "git reset --soft ") + g.hex(40)
		}},
		{"hash", "pinned action", func(g lookalikeGen) string {
			return "      - uses: actions/checkout@" + g.hex(40) + " # v4\n      - uses: actions/setup-go@" + g.hex(40) + " # v5\n"
		}},
		{"hash", "git log", func(g lookalikeGen) string {
			return "commit " + g.hex(40) + "\nAuthor: Dana Lee <dana@acme-shop.io>\nDate:   Mon Mar 3 10:12:44 2025 +0100\n\n    fix " + g.word() + " retry\n"
		}},
		{"hash", "SRI integrity", func(g lookalikeGen) string {
			return `<script src="https://cdn.jsdelivr.net/npm/` + g.word() + `@` + g.version() + `/dist/index.min.js" integrity="sha384-` + g.b64(64) + `" crossorigin="anonymous"></script>`
		}},
		{"hash", "docker digest", func(g lookalikeGen) string {
			return g.pick("FROM node:20-alpine@sha256:", "docker pull ghcr.io/acme/"+g.word()+"@sha256:", "    image: registry.acme-shop.io/"+g.word()+"@sha256:") + g.hex(64)
		}},
		{"hash", "sha256sum", func(g lookalikeGen) string {
			return "echo \"" + g.hex(64) + "  dist/" + g.word() + "-linux-amd64.tar.gz\" | sha256sum -c -"
		}},
		{"hash", "terraform lock", func(g lookalikeGen) string {
			return "provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"" + g.version() + "\"\n  hashes = [\n    \"h1:" + g.sha256b64() + "\",\n    \"zh:" + g.hex(64) + "\",\n  ]\n}\n"
		}},
		{"hash", "nix hash", func(g lookalikeGen) string {
			return "  src = fetchFromGitHub {\n    owner = \"acme\";\n    repo = \"" + g.word() + "\";\n    rev = \"" + g.hex(40) + "\";\n    hash = \"sha256-" + g.sha256b64() + "\";\n  };\n"
		}},
		{"hash", "helm Chart.lock", func(g lookalikeGen) string {
			return "dependencies:\n- name: " + g.word() + "\n  repository: https://charts.acme-shop.io\n  version: " + g.version() + "\ndigest: sha256:" + g.hex(64) + "\ngenerated: \"2025-01-02T03:04:05Z\"\n"
		}},
		{"hash", "etag and md5", func(g lookalikeGen) string {
			return "ETag: \"" + g.hex(32) + "\"\nContent-MD5: " + g.b64(22) + "==\nx-amz-checksum-sha256: " + g.sha256b64()
		}},

		{"hash", "hashes under names", func(g lookalikeGen) string {
			return `{"sha": "` + g.hex(40) + `", "node_id": "C_kwDO` + g.b64u(30) + `", "tree": {"sha": "` + g.hex(40) + `"}}` + "\nGIT_COMMIT=" + g.hex(40) + "\nCOMMIT_SHA=" + g.hex(40)
		}},
		{"hash", "webhook signature header", func(g lookalikeGen) string {
			return "X-Hub-Signature-256: sha256=" + g.hex(64) + "\nX-GitHub-Delivery: " + g.uuid()
		}},
		{"hash", "cache keys", func(g lookalikeGen) string {
			return "      - uses: actions/cache@v4\n        with:\n          path: ~/.npm\n          key: npm-linux-" + g.hex(64) + "\n          restore-keys: npm-linux-\n"
		}},
		{"hash", "docker image ids", func(g lookalikeGen) string {
			return `[{"Id": "sha256:` + g.hex(64) + `", "RepoDigests": ["acme/` + g.word() + `@sha256:` + g.hex(64) + `"]}]`
		}},
		{"hash", "password hashes", func(g lookalikeGen) string {
			return g.pick("admin:$apr1$"+g.b64(8)+"$"+g.b64(22), "password_hash: \"$2b$12$"+g.r.From(secrettest.Alnum+"./", 53)+"\"",
				"deploy:$6$"+g.b64(16)+"$"+g.r.From(secrettest.Alnum+"./", 86)+":19800:0:99999:7:::",
				"PASSWORD_HASH=$argon2id$v=19$m=65536,t=3,p=4$"+g.b64(22)+"$"+g.b64(43))
		}},
		{"uuid", "names with key that hold ids", func(g lookalikeGen) string {
			return `{"kmsKeyId": "arn:aws:kms:eu-west-1:` + g.dig(12) + `:key/` + g.uuid() + `", "s3Key": "uploads/2025/` + g.uuid() + `.png", "partitionKey": "` + g.uuid() + `", "sortKey": "ORDER#` + g.dig(10) + `"}`
		}},
		{"uuid", "hashes and keys of tables", func(g lookalikeGen) string {
			return `{"TableName": "` + g.word() + `", "hashKey": "` + g.hex(64) + `", "rangeKey": "` + g.uuid() + `"}` + "\nbuild_token_hash: \"" + g.hex(64) + "\"\n"
		}},
		{"uuid", "secret and key names that hold names", func(g lookalikeGen) string {
			return "secretName: " + g.word() + "-db-credentials\nsecret_arn = \"arn:aws:secretsmanager:us-east-1:" + g.dig(12) + ":secret:prod/" + g.word() + "-" + g.an(6) + "\"\nkey_name = \"" + g.word() + "-deploy-2025\"\ntokenUrl: https://auth.acme-shop.io/oauth/token\n"
		}},
		{"public", "public keys under names", func(g lookalikeGen) string {
			return `{"publicKey": "` + g.b64(43) + `=", "public_key": "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE` + g.b64(86) + `==", "kid": "` + g.b64u(43) + `"}`
		}},
		{"public", "ssh key fingerprint", func(g lookalikeGen) string {
			return "256 SHA256:" + g.b64(43) + " deploy@ci (ED25519)\nkey_fingerprint = \"SHA256:" + g.b64(43) + "\"\nfingerprint: " + g.hex(2) + ":" + g.hex(2) + ":" + g.hex(2) + ":" + g.hex(2) + ":" + g.hex(2) + ":" + g.hex(2) + ":" + g.hex(2) + ":" + g.hex(2)
		}},
		{"public-id", "aws account ids and arns", func(g lookalikeGen) string {
			return "role_arn = \"arn:aws:iam::" + g.dig(12) + ":role/deploy\"\nAWS_ACCOUNT_ID=" + g.dig(12) + "\nIDENTITY_POOL_ID=eu-west-1:" + g.uuid() + "\n"
		}},
		{"placeholder", "truncated examples", func(g lookalikeGen) string {
			return g.pick("Authorization: Bearer eyJhbGciOiJSUzI1NiIs...", "OPENAI_API_KEY=sk-proj-...", "SLACK_BOT_TOKEN=xoxb-your-bot-token", "token: ghp_...", `"api_key": "sk_live_..."`)
		}},
		{"minified", "generated ids in code", func(g lookalikeGen) string {
			return "const tokenizer = new Tokenizer({ vocab: \"" + g.word() + "-v2\" });\nconst keyboardLayout = \"qwerty-" + g.dig(2) + "\";\nexport const KEY_PREFIX = \"cache:v3:\";\nconst secretManager = new SecretManagerServiceClient();"
		}},
		// UUIDs and other identifiers.
		{"uuid", "kubernetes uid", func(g lookalikeGen) string {
			return "metadata:\n  name: " + g.word() + "\n  namespace: prod\n  uid: " + g.uuid() + "\n  resourceVersion: \"" + g.dig(8) + "\"\n"
		}},
		{"uuid", "azure ids", func(g lookalikeGen) string {
			return "AZURE_TENANT_ID=" + g.uuid() + "\nAZURE_SUBSCRIPTION_ID=" + g.uuid() + "\nAZURE_CLIENT_ID=" + g.uuid() + "\n"
		}},
		{"uuid", "json ids", func(g lookalikeGen) string {
			return `{"id": "` + g.uuid() + `", "orderId": "` + g.uuid() + `", "customer_id": "` + g.uuid() + `", "status": "paid"}`
		}},
		{"uuid", "request and trace ids", func(g lookalikeGen) string {
			return "2025-03-01T10:00:00Z INFO request_id=" + g.uuid() + " trace_id=" + g.hex(32) + " span_id=" + g.hex(16) + " status=200"
		}},
		{"uuid", "sql insert", func(g lookalikeGen) string {
			return "INSERT INTO " + g.word() + " (id, tenant_id, name) VALUES ('" + g.uuid() + "', '" + g.uuid() + "', 'Acme');"
		}},
		{"uuid", "visual studio project", func(g lookalikeGen) string {
			u := strings.ToUpper(g.uuid())
			return "Project(\"{" + strings.ToUpper(g.uuid()) + "}\") = \"" + g.word() + "\", \"src\\App.csproj\", \"{" + u + "}\"\nEndProject"
		}},
		{"uuid", "idempotency key", func(g lookalikeGen) string {
			return "curl -X POST https://api.acme-shop.io/v1/charges -H \"Idempotency-Key: " + g.uuid() + "\" -d amount=" + g.dig(4)
		}},

		// Base64 of ordinary data.
		{"base64", "echo | base64 -d", func(g lookalikeGen) string {
			return "echo '" + g.b64of(g.sentence()) + "' | base64 -d"
		}},
		{"base64", "configmap binaryData", func(g lookalikeGen) string {
			return "apiVersion: v1\nkind: ConfigMap\nbinaryData:\n  motd.txt: " + g.b64of(g.sentence()+" "+g.sentence()) + "\n"
		}},
		{"base64", "github contents api", func(g lookalikeGen) string {
			return `{"name": "README.md", "encoding": "base64", "content": "` + g.b64of("# "+g.word()+"\n\n"+g.sentence()+"\n") + `"}`
		}},
		{"base64", "data uri image", func(g lookalikeGen) string {
			return `.logo { background: url("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA` + g.b64(180) + `==") no-repeat; }`
		}},
		{"base64", "cloud-init user data", func(g lookalikeGen) string {
			return "  user_data = \"" + g.b64of("#!/bin/bash\napt-get update\napt-get install -y nginx\necho "+g.sentence()+"\n") + "\"\n"
		}},
		{"base64", "font in css", func(g lookalikeGen) string {
			return "@font-face { font-family: Inter; src: url(data:font/woff2;base64,d09GMgABAAAAA" + g.b64(300) + ") format('woff2'); }"
		}},

		// Public keys and certificates.
		{"public", "ssh ed25519 public key", func(g lookalikeGen) string {
			return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + g.b64(43) + " " + g.word() + "@acme-shop.io"
		}},
		{"public", "authorized_keys rsa", func(g lookalikeGen) string {
			return "echo 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + g.b64(512) + "= deploy@ci' >> ~/.ssh/authorized_keys"
		}},
		{"public", "known_hosts", func(g lookalikeGen) string {
			return "git.acme-shop.io ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + g.b64(43) + "\n|1|" + g.b64(27) + "=|" + g.b64(27) + "= ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB" + g.b64(86) + "=\n"
		}},
		{"public", "pem public key", func(g lookalikeGen) string {
			return pem("PUBLIC KEY", lines("MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"+g.b64(348)+"IDAQAB", 64))
		}},
		{"public", "certificate", func(g lookalikeGen) string {
			return "tls.crt: |\n" + pem("CERTIFICATE", lines("MIID"+g.b64(1200), 64)) + "\n"
		}},
		{"public", "kubeconfig ca data", func(g lookalikeGen) string {
			cert := pem("CERTIFICATE", lines("MIIC"+g.b64(900), 64))
			return "clusters:\n- cluster:\n    certificate-authority-data: " + g.b64of(cert) + "\n    server: https://k8s.acme-shop.io:6443\n  name: prod\n"
		}},
		{"public", "jwks public key", func(g lookalikeGen) string {
			return `{"keys":[{"kty":"RSA","use":"sig","kid":"` + g.b64u(43) + `","alg":"RS256","e":"AQAB","n":"` + g.b64u(342) + `"}]}`
		}},
		{"public", "wireguard peer public key", func(g lookalikeGen) string {
			return "[Peer]\nPublicKey = " + g.sha256b64() + "\nAllowedIPs = 10.0.0.2/32\nEndpoint = vpn.acme-shop.io:51820\n"
		}},
		{"public", "pgp public key block", func(g lookalikeGen) string {
			return pem("PGP PUBLIC KEY BLOCK", "\n"+lines("mQINBG"+g.b64(1000), 64)+"\n="+g.b64(4))
		}},
		{"public", "vapid and webhook public keys", func(g lookalikeGen) string {
			return "VAPID_PUBLIC_KEY=B" + g.b64u(86) + "\nWEBHOOK_PUBLIC_KEY=" + g.b64(43) + "=\n"
		}},
		{"public", "wallet address", func(g lookalikeGen) string {
			return "TREASURY_WALLET_ADDRESS=0x" + g.hex(40) + "\nCONTRACT_ADDRESS=0x" + g.hex(40) + "\n"
		}},

		// Minified code and build output.
		{"minified", "asset manifest", func(g lookalikeGen) string {
			return `{"files": {"main.js": "/static/js/main.` + g.hex(8) + `.js", "main.css": "/static/css/main.` + g.hex(8) + `.css"}, "entrypoints": ["static/js/main.` + g.hex(8) + `.js"]}`
		}},
		{"minified", "webpack chunk map", func(g lookalikeGen) string {
			return `__webpack_require__.u=e=>"static/js/"+e+"."+{17:"` + g.hex(8) + `",42:"` + g.hex(8) + `",318:"` + g.hex(8) + `"}[e]+".chunk.js";`
		}},
		{"minified", "css-in-js class names", func(g lookalikeGen) string {
			return `<div class="css-` + g.lan(7) + ` e1` + g.lan(6) + `0"><span class="sc-` + g.an(6) + ` ` + g.an(6) + `">Total</span></div>`
		}},
		{"minified", "source map", func(g lookalikeGen) string {
			var m []string
			for range 30 {
				m = append(m, g.r.From("ACEGIKMOQSUWYacegikmoqsuwy", 4))
			}
			return `{"version":3,"sources":["../src/` + g.word() + `.ts"],"names":["token","apiKey","secret"],"mappings":"` + strings.Join(m, ",") + `;` + strings.Join(m[:10], ",") + `"}`
		}},
		{"minified", "minified code", func(g lookalikeGen) string {
			return `function ` + g.r.From("abcdefghij", 1) + `(e,t){var n=t.apiKey||"",r=e.token,o=r.split(".");return{key:n,secret:o[1],password:!0,range:!0}}`
		}},
		{"minified", "vite assets", func(g lookalikeGen) string {
			return `<script type="module" crossorigin src="/assets/index-` + g.b64u(8) + `.js"></script>\n<link rel="stylesheet" href="/assets/index-` + g.b64u(8) + `.css">`
		}},
		{"minified", "next build id", func(g lookalikeGen) string {
			return `{"props":{"pageProps":{}},"page":"/","query":{},"buildId":"` + g.b64u(21) + `","nextExport":true}`
		}},

		// Placeholders in templates, examples and tests.
		{"placeholder", "env example", func(g lookalikeGen) string {
			return "# copy to .env\nOPENAI_API_KEY=sk-...\nSTRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\nGITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\nDATABASE_URL=postgres://user:password@localhost:5432/" + g.word() + "\n"
		}},
		{"placeholder", "your-key-here", func(g lookalikeGen) string {
			return g.pick(`const client = new Acme({ apiKey: "YOUR_API_KEY_HERE" });`, `API_TOKEN=<your-token>`, `"secret": "<client-secret>",`, `api_key: your-api-key`, `export ACME_TOKEN="your_token_goes_here"`)
		}},
		{"placeholder", "changeme", func(g lookalikeGen) string {
			return g.pick("POSTGRES_PASSWORD: changeme", "admin_password = \"change-me\"", "REDIS_PASSWORD=CHANGE_ME", "password: REPLACE_ME", "JWT_SECRET=please-change-this")
		}},
		{"placeholder", "masked", func(g lookalikeGen) string {
			return g.pick(`password = "********"`, "API_KEY=****************", "token: [REDACTED]", `"apiKey": "sk-...redacted..."`, "AWS_SECRET_ACCESS_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
		}},
		{"placeholder", "test fixture", func(g lookalikeGen) string {
			return g.pick(`form := url.Values{"username": {"alice"}, "password": {"hunter2"}}`,
				`assert client.login("bob", "test-password-1")`,
				`const mockToken = 'mock-access-token-123';`,
				`refresh_token: 'refresh_token_456',`,
				`api_key="test", secret="test-secret"`,
				`SECRET_KEY: 'intentional-secret-123',`)
		}},
		{"placeholder", "template expressions", func(g lookalikeGen) string {
			return g.pick("api_key: {{ .Values.acme.apiKey }}", "password: \"{{ vault_db_password }}\"", "token = \"${var.acme_token}\"", "<password>${env.DB_PASSWORD}</password>", "PASSWORD=%DB_PASSWORD%")
		}},
		{"placeholder", "documentation urls", func(g lookalikeGen) string {
			return g.pick("normalizeUrl('https://user:password@example.com');", "git clone https://username:token@github.com/owner/repo.git", "ftp://anonymous:anonymous@ftp.example.org/pub", "https://REDACTED:REDACTED@www."+g.word()+".com/", "curl -H \"Authorization: Bearer <token>\" https://api."+g.word()+".example/v1")
		}},

		{"placeholder", "basic auth of a documentation pair", func(g lookalikeGen) string {
			pair := g.pick("user:password", "admin:admin", "username:password", "foo:bar", "user:secret", "admin:changeme")
			return `curl -H "Authorization: Basic ` + g.b64of(pair) + `" https://api.` + g.word() + `.acme-shop.io/v1/status`
		}},
		{"placeholder", "counting test keys", func(g lookalikeGen) string {
			return g.pick(`var testKey = []byte("0123456789abcdef0123456789abcdef")`, `const encryptionKey = "00112233445566778899aabbccddeeff";`,
				`AES_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f`, `secret_key = "0123456789ABCDEF"`)
		}},
		{"placeholder", "default logins in commands", func(g lookalikeGen) string {
			return g.pick("curl -u admin:admin http://localhost:8080/api/health", "mysql -u root -ppassword123 "+g.word()+" < dump.sql",
				"curl -u guest:guest http://rabbitmq:15672/api/overview", "docker run -e POSTGRES_PASSWORD=postgres -p 5432:5432 postgres:16")
		}},
		// References to secrets held elsewhere.
		{"reference", "shell variables", func(g lookalikeGen) string {
			return g.pick("export GITHUB_TOKEN=$GH_TOKEN", `curl -H "Authorization: Bearer $API_TOKEN" https://api.acme-shop.io/v1/`+g.word(),
				`docker login -u ci -p "$REGISTRY_PASSWORD" registry.acme-shop.io`, `export AWS_SECRET_ACCESS_KEY="${AWS_SECRET_ACCESS_KEY:?}"`, `gh secret set DEPLOY_KEY < deploy_key.txt`)
		}},
		{"reference", "code reading the environment", func(g lookalikeGen) string {
			return g.pick(`const key = process.env.STRIPE_SECRET_KEY;`, `token = os.environ["ACME_API_TOKEN"]`, `apiKey := os.Getenv("ACME_API_KEY")`,
				`api_key = ENV.fetch("ACME_API_KEY")`, `password: System.getenv("DB_PASSWORD")`)
		}},
		{"reference", "ci secrets", func(g lookalikeGen) string {
			return "      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n          SENTRY_AUTH_TOKEN: ${{ secrets.SENTRY_AUTH_TOKEN }}\n"
		}},
		{"reference", "kubernetes secretKeyRef", func(g lookalikeGen) string {
			return "        env:\n        - name: DB_PASSWORD\n          valueFrom:\n            secretKeyRef:\n              name: " + g.word() + "-db\n              key: password\n"
		}},
		{"reference", "terraform variables", func(g lookalikeGen) string {
			return "  password = var.db_password\n  api_key  = data.aws_secretsmanager_secret_version." + g.word() + ".secret_string\n"
		}},
		{"reference", "url with a variable password", func(g lookalikeGen) string {
			return "DATABASE_URL=postgres://app:${DB_PASSWORD}@db." + g.word() + ".internal:5432/app\nREDIS_URL=redis://:$REDIS_PASSWORD@cache:6379/0\n"
		}},

		{"ciphertext", "chef encrypted data bag", func(g lookalikeGen) string {
			return `{"id": "` + g.word() + `", "password": {"encrypted_data": "` + g.b64(44) + `==", "iv": "` + g.b64(16) + `", "auth_tag": "` + g.b64(22) + `==", "version": 3, "cipher": "aes-256-gcm"}}`
		}},
		{"ciphertext", "hiera eyaml", func(g lookalikeGen) string {
			return "db_password: ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAxggEhMIIBHQIBADAFMAACAQEw" + g.b64(300) + "]\n"
		}},
		{"hash", "password salts and hashes", func(g lookalikeGen) string {
			return "PASSWORD_SALT=" + g.hex(32) + "\nhashed_password = \"pbkdf2_sha256$600000$" + g.b64(22) + "$" + g.sha256b64() + "\"\n"
		}},
		// Ciphertext meant to be committed.
		{"ciphertext", "sops yaml", func(g lookalikeGen) string {
			return "db_password: ENC[AES256_GCM,data:" + g.b64(24) + "=,iv:" + g.b64(43) + "=,tag:" + g.b64(22) + "==,type:str]\napi_key: ENC[AES256_GCM,data:" + g.b64(44) + ",iv:" + g.b64(43) + "=,tag:" + g.b64(22) + "==,type:str]\n"
		}},
		{"ciphertext", "age armored", func(g lookalikeGen) string {
			return "-----BEGIN AGE ENCRYPTED FILE-----\n" + lines(g.b64(300), 64) + "\n-----END AGE ENCRYPTED FILE-----\n"
		}},
		{"ciphertext", "ansible vault", func(g lookalikeGen) string {
			return "db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n          " + strings.ReplaceAll(lines(g.hex(400), 80), "\n", "\n          ") + "\n"
		}},
		{"ciphertext", "sealed secret", func(g lookalikeGen) string {
			return "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nspec:\n  encryptedData:\n    API_TOKEN: AgB" + g.b64(700) + "==\n"
		}},
		{"ciphertext", "vault transit ciphertext", func(g lookalikeGen) string {
			return "DB_PASSWORD=vault:v1:" + g.b64(56) + "==\nAPI_TOKEN=vault:v2:" + g.b64(76) + "=\n"
		}},
		{"ciphertext", "aws kms ciphertext blob", func(g lookalikeGen) string {
			return "encrypted_api_key: AQICAHh" + g.b64(180) + "==\n"
		}},
		{"ciphertext", "ejson", func(g lookalikeGen) string {
			return `{"_public_key": "` + g.hex(64) + `", "stripe_secret": "EJ[1:` + g.sha256b64() + `:` + g.b64(32) + `:` + g.b64(60) + `]"}`
		}},
		{"ciphertext", "rails encrypted credentials", func(g lookalikeGen) string {
			return "echo '" + g.b64(240) + "==--" + g.b64(22) + "==--" + g.b64(22) + "==' > config/credentials.yml.enc"
		}},

		// Public by design.
		{"public-id", "sentry dsn", func(g lookalikeGen) string {
			return "SENTRY_DSN=https://" + g.hex(32) + "@o" + g.dig(6) + ".ingest.sentry.io/" + g.dig(7)
		}},
		{"public-id", "publishable keys", func(g lookalikeGen) string {
			return "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_" + g.an(99) + "\nVITE_STRIPE_KEY=pk_test_" + g.an(99) + "\n"
		}},
		{"public-id", "mapbox public token", func(g lookalikeGen) string {
			return "mapboxgl.accessToken = 'pk.eyJ1Ijoi" + g.an(40) + "." + g.an(22) + "';"
		}},
		{"public-id", "oauth client ids", func(g lookalikeGen) string {
			return "GOOGLE_CLIENT_ID=" + g.dig(12) + "-" + g.lan(32) + ".apps.googleusercontent.com\nGITHUB_CLIENT_ID=Iv1." + g.hex(16) + "\n"
		}},
		{"public-id", "analytics ids", func(g lookalikeGen) string {
			return "GA_MEASUREMENT_ID=G-" + g.upper(10) + "\nGTM_ID=GTM-" + g.upper(7) + "\nMIXPANEL_TOKEN=" + g.hex(32) + "\nSEGMENT_WRITE_KEY=" + g.an(32) + "\n"
		}},
		{"public-id", "posthog and amplitude", func(g lookalikeGen) string {
			return "posthog.init('phc_" + g.an(43) + "', { api_host: 'https://eu.posthog.com' });\nNEXT_PUBLIC_AMPLITUDE_API_KEY=" + g.hex(32)
		}},
		{"public-id", "captcha site key", func(g lookalikeGen) string {
			return `<div class="g-recaptcha" data-sitekey="6L` + g.r.From(secrettest.Alnum+"_-", 38) + `"></div>`
		}},
		{"public-id", "algolia search key", func(g lookalikeGen) string {
			return "ALGOLIA_APP_ID=" + g.upper(10) + "\nALGOLIA_SEARCH_API_KEY=" + g.hex(32) + "\n"
		}},
		{"public-id", "datadog rum", func(g lookalikeGen) string {
			return "datadogRum.init({ applicationId: '" + g.uuid() + "', clientToken: 'pub" + g.hex(32) + "', site: 'datadoghq.eu' });"
		}},
		{"public-id", "age recipient", func(g lookalikeGen) string {
			return "AGE_RECIPIENT=age1" + g.r.From("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)
		}},
	}
}

// lookalikeCorpus makes every template's variants from one fixed seed.
func lookalikeCorpus() []lookalike {
	g := lookalikeGen{r: secrettest.NewRand(2626)}
	var out []lookalike
	for _, tpl := range lookalikeTemplates() {
		for i := range lookalikeVariants {
			out = append(out, lookalike{tpl.class, fmt.Sprintf("%s/%s #%d", tpl.class, tpl.name, i+1), tpl.make(g)})
		}
	}
	return out
}

// TestScorecardLookalikes prints the look-alikes blocked, by class, and fails
// above 1%. SCORECARD_VERBOSE=1 prints each blocked text with its rules.
func TestScorecardLookalikes(t *testing.T) {
	cases := lookalikeCorpus()
	require.GreaterOrEqual(t, len(cases), 300, "the generator makes at least 300 look-alikes")
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	found := scanAll(texts)
	blocked, total := map[string]int{}, map[string]int{}
	var all int
	for i, c := range cases {
		total[c.class]++
		if len(found[i]) == 0 {
			continue
		}
		all++
		blocked[c.class]++
		t.Logf("blocked %s by %v", c.name, found[i])
		if os.Getenv("SCORECARD_VERBOSE") != "" {
			for _, f := range secrettest.Builtin().MustScan(c.text) {
				fmt.Printf("LOOKALIKE %s %s secret=%q\n", c.name, f.RuleID, f.Secret)
			}
		}
	}
	var parts []string
	for _, class := range slices.Sorted(maps.Keys(total)) {
		parts = append(parts, fmt.Sprintf("%s %d/%d", class, blocked[class], total[class]))
	}
	rate := float64(all) / float64(len(cases))
	scorecard("%-16s look-alikes blocked %.3f (%d/%d)  by class: %s", "lookalikes", rate, all, len(cases), strings.Join(parts, ", "))
	require.LessOrEqual(t, rate, 0.01, "look-alikes blocked")
}
