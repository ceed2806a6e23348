package detector_test

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// blindCase is one text of the blind corpus: a credential of a service
// that the TruffleHog development set does not hold (service != ""), or a
// near miss that is safe to commit (service == ""). The corpus was written
// from public credential formats (vendor documentation, the rule families
// of gitleaks, TruffleHog and detect-secrets) before it was scored, to
// measure how the rules generalise beyond the development set; values are
// generated at run time.
type blindCase struct {
	service, context, text string
}

func blindCorpus() []blindCase {
	r := secrettest.NewRand(4242)
	an := func(n int) string { return r.From(secrettest.Alnum, n) }
	lan := func(n int) string { return r.From(secrettest.LowerAlnum, n) }
	uan := func(n int) string { return r.From("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", n) }
	hx := func(n int) string { return r.From(secrettest.Hex, n) }
	b64 := func(n int) string { return r.From(secrettest.Alnum+"+/", n) }
	b64u := func(n int) string { return r.From(secrettest.Base64URL, n) }
	// mix: a random value with at least two digits and two letters.
	mix := func(n int) string { return "k3" + an(n-4) + "7Z" }
	uuid := func() string { return hx(8) + "-" + hx(4) + "-" + hx(4) + "-" + hx(4) + "-" + hx(12) }
	digits := func(n int) string { return r.From("0123456789", n) }
	jwt := func() string {
		return "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + b64u(60) + "." + b64u(43)
	}
	pw := func() string { return "Qz" + an(6) + "#" + digits(2) + "w" } // a 12-character password
	basic := base64.StdEncoding.EncodeToString([]byte("svc-deploy:" + an(20)))
	return []blindCase{
		// --- Prefixed tokens ---
		{"openai", "env", "OPENAI_API_KEY=sk-proj-" + b64u(74) + "T3BlbkFJ" + b64u(74)},
		{"anthropic", "python", `client = anthropic.Anthropic(api_key="sk-ant-api03-` + b64u(93) + `AA")`},
		{"slack bot", "yaml", "slack:\n  bot_token: xoxb-" + digits(12) + "-" + digits(13) + "-" + an(24) + "\n"},
		{"pypi", ".pypirc", "[pypi]\n  username = __token__\n  password = pypi-AgEIcHlwaS5vcmc" + b64u(70) + "\n"},
		{"linear", "shell export", "export LINEAR_API_KEY=lin_api_" + an(40)},
		{"notion", "json", `{"notion": {"token": "secret_` + an(43) + `"}}`},
		{"postman", "env", "POSTMAN_API_KEY=PMAK-" + hx(24) + "-" + hx(34)},
		{"pulumi", "ci yaml", "env:\n  PULUMI_ACCESS_TOKEN: pul-" + hx(40) + "\n"},
		{"databricks", "python", `DATABRICKS_TOKEN = "dapi` + hx(32) + `"`},
		{"dynatrace", "env", "DT_API_TOKEN=dt0c01." + uan(24) + "." + uan(64)},
		{"sendgrid", "js", `sgMail.setApiKey("SG.` + b64u(22) + "." + b64u(43) + `");`},
		{"age", "key file", "# created: 2024-01-01T00:00:00Z\n# public key: age1" + lan(58) + "\nAGE-SECRET-KEY-1" + r.From("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58) + "\n"},
		{"aws", "credentials file", "[default]\naws_access_key_id = AKIA" + uan(16) + "\naws_secret_access_key = " + b64(40) + "\n"},
		{"azure storage", "connection string", `"DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=` + b64(86) + `==;EndpointSuffix=core.windows.net"`},
		{"azure ad", "env", "AZURE_CLIENT_SECRET=" + an(3) + "8Q~" + b64u(31)},
		{"google oauth", "json", `{"installed":{"client_id":"` + digits(12) + `-` + lan(32) + `.apps.googleusercontent.com","client_secret":"GOCSPX-` + b64u(28) + `"}}`},
		{"supabase", "env", "SUPABASE_ACCESS_TOKEN=sbp_" + hx(40)},
		{"render", "shell export", "export RENDER_API_KEY=rnd_" + an(32)},
		{"contentful", "js", `const client = contentful.createClient({ accessToken: "CFPAT-` + b64u(43) + `" });`},
		{"pinecone", "python", `pc = Pinecone(api_key="pcsk_` + an(6) + `_` + an(63) + `")`},
		{"perplexity", "env", "PPLX_API_KEY=pplx-" + an(48)},
		{"langsmith", "env", "LANGCHAIN_API_KEY=lsv2_pt_" + hx(32) + "_" + hx(10)},
		{"buildkite", "yaml", "buildkite_token: bkua_" + hx(40) + "\n"},
		{"sourcegraph", "shell", "export SRC_ACCESS_TOKEN=sgp_" + hx(16) + "_" + hx(40)},
		{"resend", "ts", `const resend = new Resend("re_` + an(8) + "_" + an(24) + `");`},
		{"facebook", "python", `FACEBOOK_ACCESS_TOKEN = "EAACEdEose0cBA` + an(180) + `"`},
		{"shopify", "env", "SHOPIFY_ADMIN_TOKEN=shpat_" + hx(32)},
		{"jfrog", "gradle.properties", "artifactory_user=ci\nartifactory_password=AKCp" + an(69) + "\n"},
		{"firebase fcm", "json", `{"to": "/topics/news", "server_key": "AAAA` + b64u(7) + `:APA91b` + b64u(134) + `"}`},
		{"1password", "env", "OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ" + b64u(250)},
		{"fireworks", "python", `fireworks.client.api_key = "fw_` + an(24) + `"`},
		{"razorpay", "env", "RAZORPAY_KEY_ID=rzp_live_" + an(14) + "\nRAZORPAY_KEY_SECRET=" + an(24)},
		{"mollie", "php", `$mollie->setApiKey("live_` + an(30) + `");`},
		{"sonarqube", "properties", "sonar.token=squ_" + hx(40)},

		// --- Keyword-anchored keys (no prefix) ---
		{"cohere", "env", "COHERE_API_KEY=" + mix(40)},
		{"mistral", "python", `client = Mistral(api_key="` + mix(32) + `")`},
		{"together", "shell export", "export TOGETHER_API_KEY=" + hx(64)},
		{"rollbar", "ruby", "Rollbar.configure do |config|\n  config.access_token = '" + hx(32) + "'\nend"},
		{"bugsnag", "yaml", "bugsnag:\n  api_key: \"" + hx(32) + "\"\n"},
		{"honeycomb", "env", "HONEYCOMB_API_KEY=" + mix(32)},
		{"datadog app key", "terraform", `provider "datadog" {` + "\n  api_key = \"" + hx(32) + "\"\n  app_key = \"" + hx(40) + "\"\n}"},
		{"okta", "env", "OKTA_API_TOKEN=00" + b64u(40)},
		{"linode", "shell export", "export LINODE_TOKEN=" + hx(64)},
		{"hetzner", "env", "HCLOUD_TOKEN=" + mix(64)},
		{"vultr", "yaml", "vultr:\n  api_key: " + uan(36) + "\n"},
		{"scaleway", "env", "SCW_ACCESS_KEY=SCW" + uan(17) + "\nSCW_SECRET_KEY=" + uuid()},
		{"etherscan", "js", `const ETHERSCAN_API_KEY = "` + uan(34) + `";`},
		{"virustotal", "python", `vt_client = vt.Client(apikey="` + hx(64) + `")`},
		{"shodan", "env", "SHODAN_API_KEY=" + mix(32)},
		{"plaid", "env", "PLAID_CLIENT_ID=" + hx(24) + "\nPLAID_SECRET=" + hx(30)},
		{"paypal", "env", "PAYPAL_CLIENT_SECRET=" + b64u(80)},
		{"zendesk", "yaml", "zendesk:\n  subdomain: acme\n  token: " + mix(40) + "\n"},
		{"codecov", "ci yaml", "- uses: codecov/codecov-action@v4\n  with:\n    token: " + uuid() + "\n"},
		{"azure devops", "env", "AZURE_DEVOPS_PAT=" + r.From("abcdefghijklmnopqrstuvwxyz234567", 52)},
		{"gitea", "ini", "[gitea]\nGITEA_TOKEN = " + hx(40) + "\n"},
		{"consul", "hcl", `acl {` + "\n  tokens {\n    default = \"" + uuid() + "\"\n  }\n}\nCONSUL_HTTP_TOKEN=" + uuid()},
		{"ngrok", "yaml", "version: \"2\"\nauthtoken: " + digits(1) + an(26) + "_" + an(21) + "\n"},
		{"upstash", "env", "UPSTASH_REDIS_REST_URL=https://eu1-acme-" + digits(5) + ".upstash.io\nUPSTASH_REDIS_REST_TOKEN=AX" + b64u(60) + "="},
		{"discord bot", "python", `bot.run("MT` + b64u(24) + "." + b64u(6) + "." + b64u(38) + `")  # discord bot token`},
		{"telegram", "url", "curl https://api.telegram.org/bot" + digits(10) + ":AA" + b64u(33) + "/sendMessage?chat_id=42"},
		{"wireguard", "conf", "[Interface]\nPrivateKey = " + b64(43) + "=\nAddress = 10.0.0.2/32\n"},
		{"django", "settings.py", "SECRET_KEY = '" + r.From(secrettest.Alnum+"!@#%^&*(-_=+)", 50) + "'"},
		{"rails", "yaml", "production:\n  secret_key_base: " + hx(128) + "\n"},
		{"laravel", "env", "APP_KEY=base64:" + b64(43) + "="},
		{"amplitude", "js", `amplitude.init("` + hx(32) + `"); // AMPLITUDE_SECRET_KEY=` + hx(32)},
		{"mux", "env", "MUX_TOKEN_ID=" + uuid() + "\nMUX_TOKEN_SECRET=" + b64(75)},
		{"pusher", "env", "PUSHER_APP_ID=" + digits(7) + "\nPUSHER_APP_SECRET=" + hx(20)},
		{"ably", "js", `const ably = new Ably.Realtime({ key: "` + b64u(6) + "." + b64u(6) + ":" + b64u(43) + `" });`},
		{"kubernetes", "kubeconfig", "users:\n- name: ci\n  user:\n    token: " + jwt() + "\n"},

		// --- URLs and connection strings ---
		{"neon", "env", "DATABASE_URL=postgresql://app_owner:" + an(12) + "@ep-" + lan(6) + "-" + lan(8) + ".eu-central-1.aws.neon.tech/app?sslmode=require"},
		{"snowflake", "python", `engine = create_engine("snowflake://etl:` + mix(16) + `@acme-xy12345/analytics/public")`},
		{"cassandra", "yaml", "cassandra:\n  url: cassandra://app:" + mix(16) + "@cass-1.prod.acme.io:9042/ks\n"},
		{"rtsp camera", "config", "camera_url: rtsp://admin:" + mix(14) + "@192.168.10.40:554/stream1"},
		{"elasticsearch", "env", "ELASTICSEARCH_URL=https://elastic:" + an(20) + "@acme.es.us-east-1.aws.found.io:9243"},
		{"kafka sasl", "properties", `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="svc" password="` + mix(20) + `";`},
		{"azure service bus", "json", `"ServiceBus": "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=` + b64(43) + `="`},
		{"pip index", "pip.conf", "[global]\nindex-url = https://ci:" + an(24) + "@pypi.acme.io/simple\n"},
		{"alchemy", "env", "ETH_RPC_URL=https://eth-mainnet.g.alchemy.com/v2/" + b64u(32)},
		{"infura", "js", `const provider = new ethers.JsonRpcProvider("https://mainnet.infura.io/v3/` + hx(32) + `");`},
		{"rocket.chat", "shell", "curl -X POST https://chat.acme.io/hooks/" + an(17) + "/" + an(48) + " -d '{\"text\":\"hi\"}'"},
		{"splunk hec", "shell", `curl -H "Authorization: Splunk ` + uuid() + `" https://splunk.acme.io:8088/services/collector -d '{"event":"x"}'`},
		{"elastic api key", "http", "GET /_cluster/health HTTP/1.1\nAuthorization: ApiKey " + b64(60) + "==\n"},
		{"okta ssws", "shell", `curl -H "Authorization: SSWS 00` + b64u(40) + `" https://acme.okta.com/api/v1/users`},
		{"basic auth", "http", "Authorization: Basic " + basic},
		{"npmrc custom registry", ".npmrc", "@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=" + uuid() + "\n"},
		{"netrc", ".netrc", "machine api.acme.io\n  login deploy\n  password " + mix(20) + "\n"},
		{"nuget", "nuget.config", `<packageSourceCredentials><acme><add key="Username" value="ci" /><add key="ClearTextPassword" value="` + mix(20) + `" /></acme></packageSourceCredentials>`},
		{"dotnet appsettings xml", "web.config", `<appSettings><add key="StripeSecretKey" value="` + mix(32) + `" /></appSettings>`},
		{"sql password", "sql", "CREATE USER reporting WITH PASSWORD '" + mix(18) + "';"},
		{"redis conf", "redis.conf", "bind 0.0.0.0\nrequirepass " + mix(24) + "\n"},
		{"mysql short password", "python", `conn = pymysql.connect(host="db.acme.io", user="shop", password="` + pw() + `")`},
		{"compose password", "docker-compose", "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: " + pw() + "\n"},

		// --- Private keys in every form ---
		{"openvpn static key", "ovpn", "<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\n" + hx(32) + "\n" + hx(32) + "\n" + hx(32) + "\n" + hx(32) + "\n-----END OpenVPN Static key V1-----\n</tls-auth>"},
		{"rsa pkcs1 in json", "service account", `{"type":"service_account","private_key":"-----BEGIN RSA PRIVATE` + ` KEY-----\n` + b64(64) + `\n` + b64(64) + `\n-----END RSA PRIVATE` + ` KEY-----\n"}`},
		{"ec private key", "pem", pem("EC PRIVATE"+" KEY", b64(64)+"\n"+b64(36))},
		{"pgp private key", "asc", pem("PGP PRIVATE KEY"+" BLOCK", "\n"+b64(64)+"\n"+b64(64)+"\n="+b64(4))},
		{"apple p8", "swift", "let key = \"\"\"\n" + pem("PRIVATE"+" KEY", b64(64)+"\n"+b64(64)+"\n"+b64(56)) + "\n\"\"\""},
		{"kubeconfig client key", "kubeconfig", "users:\n- name: admin\n  user:\n    client-key-data: " + base64.StdEncoding.EncodeToString([]byte(pem("RSA PRIVATE"+" KEY", b64(64)+"\n"+b64(64)))) + "\n"},

		// --- Near misses: safe to commit ---
		{"", "uuid ids", "tenant_id: " + uuid() + "\nsubscription_id: " + uuid() + "\n"},
		{"", "app insights key", "APPLICATIONINSIGHTS_CONNECTION_STRING=InstrumentationKey=" + uuid() + ";IngestionEndpoint=https://westeurope-5.in.applicationinsights.azure.com/"},
		{"", "yarn.lock integrity", "\"@babel/core@^7.0.0\":\n  version \"7.24.0\"\n  resolved \"https://registry.yarnpkg.com/@babel/core/-/core-7.24.0.tgz#" + hx(40) + "\"\n  integrity sha512-" + b64(86) + "==\n"},
		{"", "pnpm lock", "  /lodash@4.17.21:\n    resolution: {integrity: sha512-" + b64(86) + "==}\n"},
		{"", "cargo lock", "[[package]]\nname = \"serde\"\nversion = \"1.0.197\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"" + hx(64) + "\"\n"},
		{"", "composer lock", `"dist": {"type": "zip", "url": "https://api.github.com/repos/acme/lib/zipball/` + hx(40) + `", "reference": "` + hx(40) + `", "shasum": ""}`},
		{"", "git commit", "Fixes #42 (" + hx(40) + ")\nReviewed-by: someone\n"},
		{"", "docker digest", "FROM node:20@sha256:" + hx(64)},
		{"", "placeholder openai", "OPENAI_API_KEY=sk-your-key-here"},
		{"", "placeholder env", "STRIPE_SECRET_KEY=\nSENDGRID_API_KEY=<your-sendgrid-key>\nDATABASE_PASSWORD=changeme\n"},
		{"", "template reference", "password: \"{{ vault_db_password }}\"\napi_key: \"${API_KEY}\"\ntoken: \"%(token)s\"\n"},
		{"", "terraform variable", "variable \"db_password\" {\n  type      = string\n  sensitive = true\n}\npassword = var.db_password\n"},
		{"", "k8s secret ref", "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n      key: password\n"},
		{"", "sealed secret", "kind: SealedSecret\nspec:\n  encryptedData:\n    token: AgA" + b64(700) + "==\n"},
		{"", "sops json", `{"password": "ENC[AES256_GCM,data:` + b64(32) + `,iv:` + b64(43) + `=,tag:` + b64(22) + `==,type:str]"}`},
		{"", "ansible vault inline", "vault_api_key: !vault |\n  $ANSIBLE_VAULT;1.2;AES256;prod\n  " + hx(80) + "\n  " + hx(80) + "\n"},
		{"", "public key", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + b64(300) + " ci@acme"},
		{"", "wireguard public key", "[Peer]\nPublicKey = " + b64(43) + "=\nAllowedIPs = 0.0.0.0/0\n"},
		{"", "certificate", pem("CERTIFICATE", b64(64)+"\n"+b64(64))},
		{"", "local compose url", "DATABASE_URL=postgres://postgres:postgres@db:5432/app\nREDIS_URL=redis://:redis@localhost:6379\n"},
		{"", "docs url", "mongodb://<username>:<password>@cluster0.mongodb.net/test\nhttps://USER:PASS@example.com/\n"},
		{"", "test fixture password", "func TestLogin(t *testing.T) {\n\tform := url.Values{\"username\": {\"alice\"}, \"password\": {\"hunter2\"}}\n}\n"},
		{"", "password field names", "PASSWORD_RESET_TIMEOUT=3600\npassword_min_length: 12\nTOKEN_EXPIRY_SECONDS=86400\n"},
		{"", "hash constant", "const emptySHA256 = \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"\n"},
		{"", "md5 in test", "expectedMD5 := \"" + hx(32) + "\"\n"},
		{"", "base64 image", "icon: data:image/svg+xml;base64," + b64(300) + "\n"},
		{"", "css hash class", `<div class="css-` + lan(6) + ` sc-` + an(6) + `"></div>`},
		{"", "stripe publishable", "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_" + an(99)},
		{"", "google client id", "GOOGLE_CLIENT_ID=" + digits(12) + "-" + lan(32) + ".apps.googleusercontent.com"},
		{"", "aws key id alone", "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE"},
		{"", "jwt unsigned", "token: eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0NTY3ODkwIn0."},
		{"", "oauth endpoints", "token_url: https://oauth2.googleapis.com/token\nauthorize_url: https://accounts.google.com/o/oauth2/auth\n"},
		{"", "ciphertext field", `{"ciphertext": "` + b64(120) + `", "nonce": "` + b64(16) + `"}`},
		{"", "pagination token", `{"next_page_token": "` + mix(40) + `"}`},
		{"", "bearer variable", `req.Header.Set("Authorization", "Bearer "+accessToken)`},
		{"", "netrc placeholder", "machine api.acme.io\n  login deploy\n  password $NETRC_PASSWORD\n"},
		{"", "xml placeholder", `<add key="ClearTextPassword" value="%NUGET_PASSWORD%" />`},
		{"", "sql placeholder", "CREATE USER reporting WITH PASSWORD :'reporting_password';"},
		{"", "rtsp docs", "rtsp://user:password@camera.local:554/stream"},
		{"", "commit sha in url", "https://github.com/acme/app/commit/" + hx(40)},
		{"", "npm registry no auth", "registry=https://registry.npmjs.org/\n@acme:registry=https://npm.pkg.github.com\n"},
	}
}

// TestScorecardBlind scores the blind corpus: services caught (each has one
// text), near misses blocked. Every miss and false block is printed with
// its context. It fails below 0.90 of services or above 1% of near misses.
func TestScorecardBlind(t *testing.T) {
	cases := blindCorpus()
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	found := scanAll(texts)
	services := map[string]bool{}
	var near, nearBlocked int
	for i, c := range cases {
		if c.service == "" {
			near++
			if len(found[i]) > 0 {
				nearBlocked++
				fmt.Printf("blind false block %s: %s\n", strings.Join(found[i], ","), c.context)
			}
			continue
		}
		services[c.service] = services[c.service] || len(found[i]) > 0
	}
	caught := 0
	for _, s := range slices.Sorted(maps.Keys(services)) {
		if services[s] {
			caught++
		} else {
			fmt.Printf("blind miss %s\n", s)
		}
	}
	rate := float64(caught) / float64(len(services))
	scorecard("%-16s services caught %.3f (%d/%d)  near misses blocked %.3f (%d/%d)", "blind",
		rate, caught, len(services), float64(nearBlocked)/float64(near), nearBlocked, near)
	assert.GreaterOrEqual(t, rate, 0.90, "blind services caught")
	assert.LessOrEqual(t, float64(nearBlocked)/float64(near), 0.01, "near misses blocked")
}
