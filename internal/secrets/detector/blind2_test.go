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

// blind2Case is one text of the second blind set: a credential (service
// != "") of a service that neither blind_test.go nor the TruffleHog
// development set names, or a near miss that must pass (service == "").
// It was written from public vendor documentation of token formats and
// from the generic shapes credentials take in files, shell commands and
// answers, and scored once before any rule was changed (see the README's
// figures). Values are generated at run time; none comes from an account.
type blind2Case struct {
	family, service, context, text string
}

func blind2Corpus() []blind2Case {
	r := secrettest.NewRand(90210)
	an := func(n int) string { return r.From(secrettest.Alnum, n) }
	lan := func(n int) string { return r.From(secrettest.LowerAlnum, n) }
	uan := func(n int) string { return r.From("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", n) }
	hx := func(n int) string { return r.From(secrettest.Hex, n) }
	b64 := func(n int) string { return r.From(secrettest.Alnum+"+/", n) }
	b64u := func(n int) string { return r.From(secrettest.Base64URL, n) }
	b32 := func(n int) string { return r.From("abcdefghijklmnopqrstuvwxyz234567", n) }
	digits := func(n int) string { return r.From("0123456789", n) }
	// mix: a random value with at least two digits and two letters.
	mix := func(n int) string { return "p4" + an(n-4) + "8W" }
	uuid := func() string { return hx(8) + "-" + hx(4) + "-4" + hx(3) + "-a" + hx(3) + "-" + hx(12) }
	pw := func() string { return "Vb" + an(7) + "%" + digits(2) + "q" } // 12 characters, one symbol
	jwtRS := func() string {
		return "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + b64u(90) + "." + b64u(342)
	}
	std := base64.StdEncoding.EncodeToString
	key := func(kind string) string { // a PEM private key block of kind ("RSA ", "", "ENCRYPTED ")
		return pem(kind+"PRIVATE"+" KEY", b64(64)+"\n"+b64(64)+"\n"+b64(64)+"\n"+b64(40))
	}
	dockerAuth := std([]byte("ci-bot:" + mix(24)))

	return []blind2Case{
		// ===== payment =====
		{"payment", "adyen", "env", "ADYEN_API_KEY=AQE" + b64(80) + "==-" + b64(43) + "=-" + an(16)},
		{"payment", "paddle", "ts", `const paddle = new Paddle("pdl_live_apikey_01` + lan(24) + "_" + an(22) + "_" + an(3) + `");`},
		{"payment", "klarna", "yaml", "klarna:\n  api_key: klarna_live_api_" + b64u(60) + "\n"},
		{"payment", "authorize.net", "env", "AUTHORIZENET_API_LOGIN_ID=" + an(10) + "\nAUTHORIZENET_TRANSACTION_KEY=" + an(16)},
		{"payment", "recurly", "ruby", `client = Recurly::Client.new(api_key: "` + hx(32) + `")`},
		{"payment", "chargebee", "python", `chargebee.configure("live_` + an(34) + `", "acme")`},
		{"payment", "lemon squeezy", "env", "LEMONSQUEEZY_API_KEY=" + jwtRS()},
		{"payment", "xendit", "shell", "curl https://api.xendit.co/balance -u xnd_production_" + b64u(60) + ":"},
		{"payment", "midtrans", "php", `\Midtrans\Config::$serverKey = 'Mid-server-` + b64u(24) + `';`},
		{"payment", "paymongo", "answer", "I set the PayMongo secret in your .env as PAYMONGO_SECRET_KEY=sk_live_" + an(24) + " so the webhook handler can verify events."},

		// ===== messaging =====
		{"messaging", "messagebird", "env", "MESSAGEBIRD_ACCESS_KEY=" + an(25)},
		{"messaging", "sinch", "python", `sinch = SinchClient(key_id="` + uuid() + `", key_secret="` + b64u(26) + `", project_id="` + uuid() + `")`},
		{"messaging", "zulip", ".zuliprc", "[api]\nemail=deploy-bot@acme.zulipchat.com\nkey=" + an(32) + "\nsite=https://acme.zulipchat.com\n"},
		{"messaging", "line", "env", "LINE_CHANNEL_ACCESS_TOKEN=" + b64(171) + "="},
		{"messaging", "pushover", "shell", `curl -s -F "token=a` + lan(29) + `" -F "user=u` + lan(29) + `" -F "message=deploy done" https://api.pushover.net/1/messages.json`},
		{"messaging", "pushbullet", "shell export", "export PUSHBULLET_TOKEN=o." + an(32)},
		{"messaging", "onesignal", "env", "ONESIGNAL_REST_API_KEY=os_v2_app_" + b32(113)},
		{"messaging", "courier", "python", `client = Courier(authorization_token="pk_prod_` + uan(28) + `")`},
		{"messaging", "customer.io", "yaml", "customerio:\n  site_id: " + hx(20) + "\n  api_key: " + hx(20) + "\n"},
		{"messaging", "stream", "go", `client, err := stream.NewClient("` + lan(12) + `", "` + lan(64) + `") // getstream api secret`},
		{"messaging", "zoom", "env", "ZOOM_ACCOUNT_ID=" + b64u(22) + "\nZOOM_CLIENT_ID=" + b64u(22) + "\nZOOM_CLIENT_SECRET=" + an(32)},
		{"messaging", "mastodon", "python", `mastodon = Mastodon(access_token="` + b64u(43) + `", api_base_url="https://mastodon.social")`},
		{"messaging", "matrix", "json", `{"homeserver": "https://matrix.acme.io", "access_token": "syt_` + b64u(12) + "_" + an(20) + "_" + an(6) + `"}`},
		{"messaging", "infobip", "shell", `curl -H "Authorization: App ` + hx(32) + "-" + uuid() + `" https://api.infobip.com/sms/2/text/advanced`},
		{"messaging", "ntfy", "shell", `curl -H "Authorization: Bearer tk_` + lan(29) + `" -d "backup finished" https://ntfy.acme.io/alerts`},

		// ===== observability =====
		{"observability", "axiom", "env", "AXIOM_TOKEN=xaat-" + uuid() + "\nAXIOM_DATASET=logs"},
		{"observability", "coralogix", "yaml", "exporters:\n  coralogix:\n    private_key: cxtp_" + an(30) + "\n    domain: eu2.coralogix.com\n"},
		{"observability", "lightstep", "env", "LIGHTSTEP_ACCESS_TOKEN=" + b64(84)},
		{"observability", "loggly", "shell", `curl -H "content-type:text/plain" -d "hello" https://logs-01.loggly.com/inputs/` + uuid() + `/tag/http/`},
		{"observability", "papertrail", "shell export", "export PAPERTRAIL_API_TOKEN=" + an(20)},
		{"observability", "raygun", "csharp", `var client = new RaygunClient("` + an(22) + `"); // RAYGUN_API_KEY`},
		{"observability", "pagerduty", "python", `session = APISession("` + "u+" + b64u(18) + `")  # pagerduty api token`},
		{"observability", "uptimerobot", "env", "UPTIMEROBOT_API_KEY=ur" + digits(7) + "-" + hx(24)},
		{"observability", "checkly", "ci yaml", "env:\n  CHECKLY_API_KEY: cu_" + hx(32) + "\n  CHECKLY_ACCOUNT_ID: " + uuid() + "\n"},
		{"observability", "honeybadger", "env", "HONEYBADGER_PERSONAL_AUTH_TOKEN=hbp_" + an(30)},
		{"observability", "airbrake", "ruby", "Airbrake.configure do |c|\n  c.project_id = " + digits(6) + "\n  c.project_key = '" + hx(32) + "'\nend"},
		{"observability", "mezmo", "yaml", "logdna:\n  ingestion_key: " + hx(32) + "\n"},
		{"observability", "cronitor", "js", `const cronitor = require('cronitor')('` + hx(32) + `');`},
		{"observability", "instana", "helm", "helm install instana-agent instana/instana-agent --set agent.key=" + b64u(22) + " --set zone.name=prod"},

		// ===== CI/CD and developer tools =====
		{"cicd", "travis", "env", "TRAVIS_API_TOKEN=" + b64u(22)},
		{"cicd", "jenkins", "shell", "curl -X POST -u admin:11" + hx(32) + " https://jenkins.acme.io/job/deploy/build"},
		{"cicd", "teamcity", "env", "TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9." + b64u(36) + "." + b64u(48)},
		{"cicd", "railway", "ci yaml", "env:\n  RAILWAY_TOKEN: " + uuid() + "\n"},
		{"cicd", "turborepo", "env", "TURBO_TEAM=acme\nTURBO_TOKEN=" + an(24)},
		{"cicd", "cypress", "shell", "npx cypress run --record --key " + uuid()},
		{"cicd", "percy", "env", "PERCY_TOKEN=web_" + hx(64)},
		{"cicd", "browserstack", "yaml", "userName: acme_ci\naccessKey: " + an(20) + "\nplatforms:\n  - os: Windows\n"},
		{"cicd", "expo", "shell export", "export EXPO_TOKEN=" + b64u(40)},
		{"cicd", "apple app-specific password", "env", "FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD=" + r.From("abcdefghijklmnopqrstuvwxyz", 4) + "-" + r.From("abcdefghijklmnopqrstuvwxyz", 4) + "-" + r.From("abcdefghijklmnopqrstuvwxyz", 4) + "-" + r.From("abcdefghijklmnopqrstuvwxyz", 4)},
		{"cicd", "argocd", "shell", "argocd app sync web --auth-token " + jwtRS() + " --server argocd.acme.io"},
		{"cicd", "shortcut", "python", `headers = {"Shortcut-Token": "` + uuid() + `"}`},
		{"cicd", "todoist", "env", "TODOIST_API_TOKEN=" + hx(40)},
		{"cicd", "miro", "js", `const miro = new MiroApi("eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_` + b64u(27) + `");`},
		{"cicd", "deno deploy", "ci yaml", "- run: deployctl deploy --project=web main.ts\n  env:\n    DENO_DEPLOY_TOKEN: ddp_" + an(36) + "\n"},
		{"cicd", "portainer", "shell", `curl -H "X-API-Key: ptr_` + b64(43) + `" https://portainer.acme.io/api/stacks`},
		{"cicd", "rancher", "env", "RANCHER_TOKEN=token-" + lan(5) + ":" + lan(54)},
		{"cicd", "nomad", "shell export", "export NOMAD_ADDR=https://nomad.acme.io:4646\nexport NOMAD_TOKEN=" + uuid()},

		// ===== cloud, hosting, CDN =====
		{"cloud", "tencent cloud", "env", "TENCENTCLOUD_SECRET_ID=AKID" + an(32) + "\nTENCENTCLOUD_SECRET_KEY=" + an(32)},
		{"cloud", "huawei cloud", "python", `credentials = BasicCredentials("` + uan(20) + `", "` + an(40) + `")  # huaweicloud ak/sk`},
		{"cloud", "oracle cloud", "oci config", "[DEFAULT]\nuser=ocid1.user.oc1.." + lan(60) + "\nfingerprint=" + hx(2) + ":" + hx(2) + ":" + hx(2) + ":" + hx(2) + "\nkey_file=~/.oci/oci_api_key.pem\npass_phrase=" + pw() + "\ntenancy=ocid1.tenancy.oc1.." + lan(60) + "\n"},
		{"cloud", "fastly", "shell export", "export FASTLY_API_TOKEN=" + b64u(32)},
		{"cloud", "akamai", ".edgerc", "[default]\nclient_secret = " + b64(43) + "=\nhost = akab-" + lan(16) + "-" + lan(16) + ".luna.akamaiapis.net\naccess_token = akab-" + lan(16) + "-" + lan(16) + "\nclient_token = akab-" + lan(16) + "-" + lan(16) + "\n"},
		{"cloud", "bunny", "env", "BUNNY_API_KEY=" + uuid() + hx(8) + "-" + hx(4) + "-" + hx(4) + "-" + hx(4) + "-" + hx(12)},
		{"cloud", "keycdn", "php", `$keycdn_api = new KeyCDN\API('` + an(32) + `');`},
		{"cloud", "ovh", "ovh.conf", "[default]\nendpoint=ovh-eu\n[ovh-eu]\napplication_key=" + an(16) + "\napplication_secret=" + an(32) + "\nconsumer_key=" + an(32) + "\n"},
		{"cloud", "backblaze b2", "env", "B2_APPLICATION_KEY_ID=005" + hx(12) + "0000000003\nB2_APPLICATION_KEY=K005" + b64(27)},
		{"cloud", "wasabi", "credentials file", "[wasabi]\naws_access_key_id = " + uan(20) + "\naws_secret_access_key = " + an(40) + "\n"},
		{"cloud", "appwrite", "env", "APPWRITE_API_KEY=standard_" + hx(256)},
		{"cloud", "convex", "env", "CONVEX_DEPLOY_KEY=prod:happy-otter-" + digits(3) + "|eyJ" + b64u(100)},
		{"cloud", "exoscale", "env", "EXOSCALE_API_KEY=EXO" + hx(24) + "\nEXOSCALE_API_SECRET=" + b64u(43)},
		{"cloud", "civo", "shell", "civo apikey add prod " + an(50)},
		{"cloud", "equinix metal", "hcl", "provider \"equinix\" {\n  auth_token = \"" + an(32) + "\"\n}\n"},
		{"cloud", "openstack", "clouds.yaml", "clouds:\n  prod:\n    auth:\n      auth_url: https://keystone.acme.io:5000/v3\n      username: deploy\n      password: " + pw() + "\n      project_name: web\n"},

		// ===== AI / LLM providers and AI tooling =====
		{"ai", "anyscale", "env", "ANYSCALE_API_KEY=esecret_" + lan(26)},
		{"ai", "deepinfra", "python", `client = OpenAI(api_key="` + an(32) + `", base_url="https://api.deepinfra.com/v1/openai")`},
		{"ai", "cerebras", "env", "CEREBRAS_API_KEY=csk-" + lan(48)},
		{"ai", "ai21", "python", `client = AI21Client(api_key="` + an(32) + `")`},
		{"ai", "voyage", "env", "VOYAGE_API_KEY=pa-" + b64u(43)},
		{"ai", "jina", "shell", `curl https://api.jina.ai/v1/embeddings -H "Authorization: Bearer jina_` + an(60) + `"`},
		{"ai", "stability", "env", "STABILITY_API_KEY=sk-" + an(48)},
		{"ai", "langfuse", "env", "LANGFUSE_SECRET_KEY=sk-lf-" + uuid() + "\nLANGFUSE_PUBLIC_KEY=pk-lf-" + uuid()},
		{"ai", "helicone", "python", `default_headers={"Helicone-Auth": "Bearer sk-helicone-` + lan(7) + "-" + lan(7) + "-" + lan(7) + "-" + lan(7) + `"}`},
		{"ai", "modal", ".modal.toml", "[default]\ntoken_id = \"ak-" + an(22) + "\"\ntoken_secret = \"as-" + an(22) + "\"\n"},
		{"ai", "runpod", "env", "RUNPOD_API_KEY=rpa_" + uan(44)},
		{"ai", "azure openai", "python", `client = AzureOpenAI(api_key="` + hx(32) + `", azure_endpoint="https://acme.openai.azure.com")`},
		{"ai", "tavily", "python", `tavily = TavilyClient(api_key="tvly-` + an(32) + `")`},
		{"ai", "serpapi", "env", "SERPAPI_API_KEY=" + hx(64)},
		{"ai", "firecrawl", "ts", `const app = new FirecrawlApp({ apiKey: "fc-` + hx(32) + `" });`},
		{"ai", "browserbase", "env", "BROWSERBASE_API_KEY=bb_live_" + b64u(27)},
		{"ai", "e2b", "env", "E2B_API_KEY=e2b_" + hx(40)},
		{"ai", "llamacloud", "python", `parser = LlamaParse(api_key="llx-` + an(48) + `")`},
		{"ai", "baseten", "shell", `curl -H "Authorization: Api-Key ` + an(8) + "." + an(32) + `" https://model-abc123.api.baseten.co/production/predict`},
		{"ai", "weaviate", "python", `client = weaviate.connect_to_weaviate_cloud(cluster_url=url, auth_credentials=Auth.api_key("` + an(40) + `"))`},
		{"ai", "qdrant", "env", "QDRANT_URL=https://" + uuid() + ".eu-central.aws.cloud.qdrant.io\nQDRANT_API_KEY=" + b64u(60)},
		{"ai", "exa", "answer", "Done: the search tool now reads EXA_API_KEY=" + uuid() + " from your environment."},

		// ===== databases as a service and search =====
		{"database", "mongodb atlas api", "env", "MONGODB_ATLAS_PUBLIC_KEY=" + lan(8) + "\nMONGODB_ATLAS_PRIVATE_KEY=" + uuid()},
		{"database", "turso", "env", "TURSO_DATABASE_URL=libsql://app-acme.turso.io\nTURSO_AUTH_TOKEN=eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJ" + b64u(80) + "." + b64u(86)},
		{"database", "cockroachdb cloud", "env", "COCKROACH_API_KEY=CCDB1_" + an(22) + "_" + an(40)},
		{"database", "fauna", "js", `const client = new Client({ secret: "fnA` + b64u(37) + `" });`},
		{"database", "xata", "env", "XATA_API_KEY=xau_" + an(40)},
		{"database", "influxdb", "python", `client = InfluxDBClient(url="https://eu-central-1-1.aws.cloud2.influxdata.com", token="` + b64u(86) + `==", org="acme")`},
		{"database", "clickhouse cloud", "env", "CLICKHOUSE_KEY_ID=" + an(20) + "\nCLICKHOUSE_KEY_SECRET=4b1d" + an(38)},
		{"database", "tinybird", "env", "TB_TOKEN=p.eyJ1IjogIj" + b64u(80) + "." + b64u(43)},
		{"database", "prisma accelerate", "env", `DATABASE_URL="prisma://accelerate.prisma-data.net/?api_key=` + jwtRS() + `"`},
		{"database", "hasura", "docker-compose", "services:\n  hasura:\n    environment:\n      HASURA_GRAPHQL_ADMIN_SECRET: " + mix(32) + "\n"},
		{"database", "typesense", "js", `const client = new Typesense.Client({ nodes, apiKey: "` + an(32) + `" });`},
		{"database", "meilisearch", "shell", "docker run -p 7700:7700 -e MEILI_MASTER_KEY=" + b64u(32) + " getmeili/meilisearch"},
		{"database", "neo4j aura", "env", "NEO4J_URI=neo4j+s://" + hx(8) + ".databases.neo4j.io\nNEO4J_USERNAME=neo4j\nNEO4J_PASSWORD=" + b64u(43)},
		{"database", "couchbase capella", "java", `Cluster cluster = Cluster.connect("couchbases://cb.` + lan(16) + `.cloud.couchbase.com", "app", "` + pw() + `");`},

		// ===== feature flags =====
		{"flags", "split", "env", "SPLIT_SDK_KEY=" + lan(40)},
		{"flags", "flagsmith", "python", `flagsmith = Flagsmith(environment_key="ser.` + an(22) + `")`},
		{"flags", "configcat", "go", `client := configcat.NewClient("configcat-sdk-1/` + b64u(22) + "/" + b64u(22) + `")`},
		{"flags", "unleash", "env", "UNLEASH_API_TOKEN=*:production." + hx(64)},
		{"flags", "statsig", "env", "STATSIG_SERVER_SECRET=secret-" + an(43)},
		{"flags", "devcycle", "env", "DEVCYCLE_SERVER_SDK_KEY=dvc_server_" + uuid() + "_hash"},
		{"flags", "growthbook", "env", "GROWTHBOOK_SECRET_KEY=secret_admin_" + b64u(43)},

		// ===== e-mail =====
		{"email", "mailersend", "env", "MAILERSEND_API_KEY=mlsn." + hx(64)},
		{"email", "mailtrap", "python", `client = mt.MailtrapClient(token="` + hx(32) + `")`},
		{"email", "smtp2go", "json", `{"api_key": "api-` + hx(32) + `", "to": ["ops@acme.io"], "sender": "noreply@acme.io"}`},
		{"email", "zeptomail", "shell", `curl https://api.zeptomail.com/v1.1/email -H "Authorization: Zoho-enczapikey ` + b64(120) + `=="`},
		{"email", "loops", "ts", `const loops = new LoopsClient("` + hx(32) + `"); // LOOPS_API_KEY`},
		{"email", "smtp password", "yaml", "smtp:\n  host: smtp.acme.io\n  port: 587\n  username: apikey\n  password: " + pw() + "\n"},

		// ===== maps and location =====
		{"maps", "google maps", "html", `<script src="https://maps.googleapis.com/maps/api/js?key=AIza` + b64u(35) + `&callback=initMap"></script>`},
		{"maps", "bing maps", "env", "BING_MAPS_KEY=" + b64u(64)},
		{"maps", "azure maps", "js", `authOptions: { authType: "subscriptionKey", subscriptionKey: "` + b64u(43) + `" }`},
		{"maps", "maptiler", "js", `const style = "https://api.maptiler.com/maps/streets/style.json?key=` + an(20) + `";`},
		{"maps", "arcgis", "env", "ARCGIS_API_KEY=AAPK" + hx(32) + b64u(80)},
		{"maps", "radar", "swift", `Radar.initialize(publishableKey: "prj_live_pk_` + hx(40) + `") // server: RADAR_SECRET=prj_live_sk_` + hx(40)},

		// ===== package registries =====
		{"registry", "rubygems", "credentials", "---\n:rubygems_api_key: rubygems_" + hx(48) + "\n"},
		{"registry", "crates.io", "shell", "cargo login cio" + an(32)},
		{"registry", "nuget.org", "shell", "dotnet nuget push pkg.nupkg --api-key oy2" + lan(43) + " --source https://api.nuget.org/v3/index.json"},
		{"registry", "clojars", "env", "CLOJARS_USERNAME=acme\nCLOJARS_PASSWORD=CLOJARS_" + hx(60)},
		{"registry", "hex.pm", "shell export", "export HEX_API_KEY=" + hx(32)},
		{"registry", "quay", "shell", "docker login -u=\"acme+ci\" -p=\"" + uan(64) + "\" quay.io"},
		{"registry", "gemfury", "shell", "curl -F package=@pkg-1.0.tgz https://" + b64u(20) + "@push.fury.io/acme/"},
		{"registry", "maven settings", "settings.xml", "<servers>\n  <server>\n    <id>ossrh</id>\n    <username>acme</username>\n    <password>" + mix(20) + "</password>\n  </server>\n</servers>"},
		{"registry", "packagist", "auth.json", `{"http-basic": {"repo.packagist.com": {"username": "token", "password": "` + hx(40) + `"}}}`},
		{"registry", "npm _auth", ".npmrc", "registry=https://npm.acme.io/\n_auth=" + std([]byte("ci:"+mix(20))) + "\nalways-auth=true\n"},
		{"registry", "npm token custom registry", ".npmrc", "//npm.acme.io/repository/npm/:_authToken=NpmToken." + uuid() + "\n"},
		{"registry", "pypirc custom repo", ".pypirc", "[distutils]\nindex-servers = acme\n[acme]\nrepository = https://pypi.acme.io/\nusername = ci\npassword = " + mix(24) + "\n"},
		{"registry", "pip extra index", "pip.conf", "[global]\nextra-index-url = https://__token__:" + b64u(40) + "@gitlab.acme.io/api/v4/projects/12/packages/pypi/simple\n"},
		{"registry", "docker config auths", "config.json", `{"auths": {"registry.acme.io": {"auth": "` + dockerAuth + `"}}}`},
		{"registry", "anaconda", "shell", "anaconda -t " + b64u(43) + " upload dist/pkg.tar.bz2"},

		// ===== identity providers =====
		{"identity", "clerk", "env", "CLERK_SECRET_KEY=sk_live_" + an(40)},
		{"identity", "stytch", "env", "STYTCH_PROJECT_ID=project-live-" + uuid() + "\nSTYTCH_SECRET=secret-live-" + b64u(36)},
		{"identity", "workos", "env", "WORKOS_API_KEY=sk_" + b64(70) + "\nWORKOS_CLIENT_ID=client_" + uan(26)},
		{"identity", "keycloak", "json", `{"realm": "acme", "resource": "web", "credentials": {"secret": "` + an(32) + `"}}`},
		{"identity", "fusionauth", "env", "FUSIONAUTH_API_KEY=" + b64u(64)},
		{"identity", "cognito", "python", `client = boto3.client("cognito-idp")
resp = client.initiate_auth(ClientId="` + lan(26) + `", AuthParameters={"SECRET_HASH": h}, ClientSecret="` + lan(51) + `")`},
		{"identity", "descope", "env", "DESCOPE_MANAGEMENT_KEY=K" + an(30) + b64u(60)},
		{"identity", "kinde", "env", "KINDE_CLIENT_SECRET=" + an(46)},

		// ===== crypto exchanges =====
		{"crypto", "binance", "python", `client = Client(api_key="` + an(64) + `", api_secret="` + an(64) + `")  # binance`},
		{"crypto", "coinbase", "env", "COINBASE_API_KEY=" + an(16) + "\nCOINBASE_API_SECRET=" + an(32)},
		{"crypto", "kraken", "env", "KRAKEN_API_KEY=" + b64(56) + "\nKRAKEN_PRIVATE_KEY=" + b64(86) + "=="},
		{"crypto", "bybit", "yaml", "bybit:\n  api_key: " + an(18) + "\n  api_secret: " + an(36) + "\n"},
		{"crypto", "okx", "env", "OKX_API_KEY=" + uuid() + "\nOKX_SECRET_KEY=" + uan(32) + "\nOKX_PASSPHRASE=" + pw()},
		{"crypto", "gemini exchange", "env", "GEMINI_API_KEY=account-" + an(20) + "\nGEMINI_API_SECRET=" + an(28)},
		{"crypto", "gate.io", "js", `const gate = new ccxt.gateio({ apiKey: "` + hx(32) + `", secret: "` + hx(64) + `" });`},

		// ===== connection strings with passwords =====
		{"connstr", "postgres", "python", `engine = create_engine("postgresql+psycopg2://report:` + mix(16) + `@db.acme.io:5432/analytics")`},
		{"connstr", "mysql", "env", "DATABASE_URL=mysql://shop:" + mix(16) + "@mysql.acme.io:3306/shop"},
		{"connstr", "mariadb jdbc", "properties", "spring.datasource.url=jdbc:mariadb://db.acme.io:3306/app?user=app&password=" + mix(16)},
		{"connstr", "mongodb+srv", "js", `await mongoose.connect("mongodb+srv://api:` + mix(16) + `@cluster0.` + lan(5) + `.mongodb.net/prod?retryWrites=true");`},
		{"connstr", "rediss", "go", `opt, _ := redis.ParseURL("rediss://default:` + mix(24) + `@cache.acme.io:6380/0")`},
		{"connstr", "amqp", "yaml", "celery:\n  broker_url: amqps://worker:" + mix(16) + "@mq.acme.io:5671/prod\n"},
		{"connstr", "sqlserver ado.net", "csharp", `var cs = "Server=tcp:acme.database.windows.net,1433;Database=app;User ID=app;Password=` + pw() + `;Encrypt=True;";`},
		{"connstr", "oracle jdbc", "java", `Connection c = DriverManager.getConnection("jdbc:oracle:thin:scott/` + mix(14) + `@//ora.acme.io:1521/ORCL");`},
		{"connstr", "postgres jdbc", "yaml", "datasource:\n  url: jdbc:postgresql://pg.acme.io:5432/app?user=app&password=" + mix(16) + "&ssl=true\n"},
		{"connstr", "sqlserver jdbc", "properties", "db.url=jdbc:sqlserver://sql.acme.io:1433;databaseName=app;user=app;password=" + pw() + ";"},
		{"connstr", "odbc", "odbc.ini", "[acme]\nDriver=ODBC Driver 18 for SQL Server\nServer=sql.acme.io\nUID=report\nPWD=" + pw() + "\n"},
		{"connstr", "odbc string", "python", `conn = pyodbc.connect("DRIVER={PostgreSQL Unicode};SERVER=pg.acme.io;DATABASE=app;UID=app;PWD=` + pw() + `")`},
		{"connstr", "sftp url", "shell", "curl -T backup.tar.gz sftp://backup:" + mix(14) + "@files.acme.io/backups/"},
		{"connstr", "smtp url", "env", "EMAIL_URL=smtp+tls://mailer:" + mix(16) + "@smtp.acme.io:587"},
		{"connstr", "nats", "go", `nc, err := nats.Connect("nats://svc:` + mix(16) + `@nats.acme.io:4222")`},
		{"connstr", "mqtt", "python", `client.connect_async("mqtt://sensor:` + mix(14) + `@broker.acme.io:1883")`},
		{"connstr", "clickhouse url", "env", "CLICKHOUSE_URL=clickhouse://default:" + mix(16) + "@ch.acme.io:9440/default?secure=true"},
		{"connstr", "git url with token", "shell", "git clone https://build:" + b64u(40) + "@git.acme.io/platform/infra.git"},
		{"connstr", "mysql answer", "answer", "Your app can now connect with `mysql+pymysql://app:" + mix(16) + "@10.0.3.14/orders`; restart the worker to pick it up."},

		// ===== private keys =====
		{"privkey", "pkcs8 encrypted", "pem", key("ENCRYPTED ")},
		{"privkey", "openssh", "id_ed25519", pem("OPENSSH PRIVATE"+" KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"+"\n"+b64(70)+"\n"+b64(70)+"\n"+b64(40))},
		{"privkey", "dsa", "pem", pem("DSA PRIVATE"+" KEY", b64(64)+"\n"+b64(64)+"\n"+b64(64))},
		{"privkey", "putty v2", "ppk", "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nComment: deploy\nPublic-Lines: 2\nAAAAB3NzaC1yc2EAAAADAQABAAABAQ" + b64(34) + "\n" + b64(64) + "\nPrivate-Lines: 3\n" + b64(64) + "\n" + b64(64) + "\n" + b64(48) + "\nPrivate-MAC: " + hx(40) + "\n"},
		{"privkey", "putty v3", "ppk", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ci\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43) + "\nPrivate-Lines: 1\nAAAAI" + b64(43) + "\nPrivate-MAC: " + hx(64) + "\n"},
		{"privkey", "jwk rsa", "json", `{"kty":"RSA","kid":"signing-1","n":"` + b64u(342) + `","e":"AQAB","d":"` + b64u(342) + `","p":"` + b64u(171) + `","q":"` + b64u(171) + `"}`},
		{"privkey", "jwk ec", "json", `{"keys":[{"kty":"EC","crv":"P-256","x":"` + b64u(43) + `","y":"` + b64u(43) + `","d":"` + b64u(43) + `"}]}`},
		{"privkey", "jwk okp", "json", `{"kty":"OKP","crv":"Ed25519","x":"` + b64u(43) + `","d":"` + b64u(43) + `"}`},
		{"privkey", "ssh2 encrypted", "ssh.com", "---- BEGIN SSH2 ENCRYPTED PRIVATE" + " KEY ----\nComment: \"rsa-key-20240101\"\nP2/56wAAA" + b64(60) + "\n" + b64(64) + "\n" + b64(64) + "\n---- END SSH2 ENCRYPTED PRIVATE" + " KEY ----\n"},
		{"privkey", "escaped in env", "env", `GITHUB_APP_PRIVATE_KEY="-----BEGIN RSA PRIVATE` + ` KEY-----\n` + b64(64) + `\n` + b64(64) + `\n` + b64(40) + `\n-----END RSA PRIVATE` + ` KEY-----\n"`},
		{"privkey", "indented yaml block", "yaml", "tls:\n  key: |\n    " + strings.ReplaceAll(key(""), "\n", "\n    ") + "\n"},
		{"privkey", "k8s secret tls.key", "k8s secret", "apiVersion: v1\nkind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.key: " + std([]byte(key("RSA "))) + "\n"},

		// ===== HTTP authorization headers =====
		{"header", "bearer opaque curl", "shell", `curl -H "Authorization: Bearer ` + b64u(40) + `" https://api.acme.io/v2/orders`},
		{"header", "bearer python", "python", `resp = requests.get(url, headers={"Authorization": "Bearer ` + an(48) + `"})`},
		{"header", "drf token", "shell", `http GET https://api.acme.io/items/ "Authorization: Token ` + hx(40) + `"`},
		{"header", "x-api-key", "shell", `curl https://api.acme.io/v1/reports -H 'X-API-Key: ` + mix(32) + `'`},
		{"header", "proxy basic", "http", "CONNECT internal.acme.io:443 HTTP/1.1\nProxy-Authorization: Basic " + std([]byte("proxyuser:"+mix(16))) + "\n"},
		{"header", "basic js", "js", `fetch(url, { headers: { Authorization: "Basic ` + std([]byte("svc:"+mix(20))) + `" } });`},
		{"header", "bearer answer", "answer", "I tested the endpoint with `Authorization: Bearer " + b64u(48) + "` and it returned 200."},

		// ===== password= in config formats =====
		{"password", "yaml spring", "application.yml", "spring:\n  datasource:\n    url: jdbc:postgresql://db:5432/app\n    username: app\n    password: " + pw() + "\n"},
		{"password", "toml", "config.toml", "[database]\nhost = \"db.acme.io\"\nuser = \"app\"\npassword = \"" + pw() + "\"\n"},
		{"password", "ini", "my.cnf", "[client]\nuser=backup\npassword=" + pw() + "\nhost=db.acme.io\n"},
		{"password", "dotenv", ".env", "DB_HOST=db.acme.io\nDB_USER=app\nDB_PASSWORD=" + pw() + "\n"},
		{"password", "json", "appsettings.json", `{"Smtp": {"Host": "smtp.acme.io", "User": "noreply", "Password": "` + pw() + `"}}`},
		{"password", "xml", "context.xml", `<Resource name="jdbc/app" auth="Container" type="javax.sql.DataSource" username="app" password="` + pw() + `" url="jdbc:mysql://db/app"/>`},
		{"password", "properties", "application.properties", "spring.mail.host=smtp.acme.io\nspring.mail.username=noreply\nspring.mail.password=" + pw() + "\n"},
		{"password", "hcl", "main.tf", "resource \"aws_db_instance\" \"main\" {\n  engine   = \"postgres\"\n  username = \"app\"\n  password = \"" + pw() + "\"\n}\n"},
		{"password", "dockerfile env", "Dockerfile", "FROM postgres:16\nENV POSTGRES_USER=app\nENV POSTGRES_PASSWORD=" + pw() + "\n"},
		{"password", "k8s secret data", "k8s secret", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  username: " + std([]byte("app")) + "\n  password: " + std([]byte(pw())) + "\n"},
		{"password", "ansible", "group_vars", "ansible_user: deploy\nansible_become_password: " + pw() + "\n"},
		{"password", "mysql cli", "shell", "mysql -h db.acme.io -u root -p" + pw() + " app < dump.sql"},
		{"password", "sshpass", "shell", "sshpass -p '" + pw() + "' ssh deploy@10.0.0.5 uptime"},
		{"password", "pgpassword", "shell", "PGPASSWORD=" + pw() + " psql -h db.acme.io -U app -c 'select 1'"},
		{"password", "php array", "php", "'mysql' => [\n    'host' => 'db.acme.io',\n    'username' => 'app',\n    'password' => '" + pw() + "',\n],"},
		{"password", "answer sentence", "answer", "The admin account is set up: log in as `admin` with the password " + pw() + " and change it after the first login."},

		// ===== near misses: must pass =====
		{"near", "", "placeholder header", `curl -H "Authorization: Bearer <your-token>" https://api.acme.io/v2/orders`},
		{"near", "", "xxx key", "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx"},
		{"near", "", "env reference yaml", "database:\n  password: ${DB_PASSWORD}\n  user: ${DB_USER}\n"},
		{"near", "", "changeme ini", "[database]\nuser = app\npassword = changeme\n"},
		{"near", "", "redacted json", `{"api_key": "REDACTED", "password": "[REDACTED]"}`},
		{"near", "", "masked stars", "password: ********\ntoken: ****************\n"},
		{"near", "", "conn placeholder", "postgresql://<user>:<password>@<host>:5432/<db>"},
		{"near", "", "shell secret file", `export DB_PASSWORD="$(cat /run/secrets/db_password)"`},
		{"near", "", "python environ", `api_key = os.environ["OPENAI_API_KEY"]` + "\n" + `password = os.getenv("DB_PASSWORD", "")`},
		{"near", "", "js process.env", `const stripe = new Stripe(process.env.STRIPE_SECRET_KEY, { apiVersion: "2024-06-20" });`},
		{"near", "", "helm template", "password: {{ .Values.postgresql.auth.password | quote }}\napiKey: {{ required \"apiKey\" .Values.apiKey }}\n"},
		{"near", "", "actions secret", "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  password: ${{ secrets.DB_PASSWORD }}\n"},
		{"near", "", "npmrc env", "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n"},
		{"near", "", "aws docs example secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"},
		{"near", "", "jwt.io example", "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ." + "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"},
		{"near", "", "git log", "commit " + hx(40) + "\nAuthor: Dev <dev@acme.io>\n\n    fix token refresh\n"},
		{"near", "", "sha256sum", hx(64) + "  gemini-guard_linux_amd64.tar.gz\n" + hx(64) + "  gemini-guard_darwin_arm64.tar.gz\n"},
		{"near", "", "package-lock", `"node_modules/lodash": {"version": "4.17.21", "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz", "integrity": "sha512-` + b64(86) + `=="}`},
		{"near", "", "go.sum", "github.com/stretchr/testify v1.9.0 h1:" + b64(43) + "=\ngithub.com/stretchr/testify v1.9.0/go.mod h1:" + b64(43) + "=\n"},
		{"near", "", "poetry lock", `files = [{file = "requests-2.32.3-py3-none-any.whl", hash = "sha256:` + hx(64) + `"}]`},
		{"near", "", "requirements hashes", "requests==2.32.3 \\\n    --hash=sha256:" + hx(64) + " \\\n    --hash=sha256:" + hx(64) + "\n"},
		{"near", "", "terraform lock", "provider \"registry.terraform.io/hashicorp/aws\" {\n  version = \"5.40.0\"\n  hashes = [\n    \"h1:" + b64(43) + "=\",\n    \"zh:" + hx(64) + "\",\n  ]\n}\n"},
		{"near", "", "flake.lock", `"locked": {"lastModified": 1718000000, "narHash": "sha256-` + b64(43) + `=", "rev": "` + hx(40) + `", "type": "github"}`},
		{"near", "", "git lfs pointer", "version https://git-lfs.github.com/spec/v1\noid sha256:" + hx(64) + "\nsize 1048576\n"},
		{"near", "", "request ids", "level=info msg=\"request done\" request_id=" + uuid() + " trace_id=" + hx(32) + " span_id=" + hx(16) + "\n"},
		{"near", "", "uuid route", "GET /api/v1/users/" + uuid() + "/orders/" + uuid() + " 200 12ms\n"},
		{"near", "", "base64 text payload", `{"message": "` + std([]byte("The quarterly report is attached; please review it before Friday's meeting.")) + `", "encoding": "base64"}`},
		{"near", "", "public key pem", pem("PUBLIC KEY", b64(64)+"\n"+b64(64)+"\n"+b64(64)+"\n"+b64(24))},
		{"near", "", "kubeconfig ca data", "clusters:\n- cluster:\n    certificate-authority-data: " + std([]byte(pem("CERTIFICATE", b64(64)+"\n"+b64(64)))) + "\n    server: https://10.0.0.1:6443\n"},
		{"near", "", "authorized_keys", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43) + " deploy@ci\n"},
		{"near", "", "known_hosts", "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43) + "\n"},
		{"near", "", "pgp public key", pem("PGP PUBLIC KEY BLOCK", "\n"+b64(64)+"\n"+b64(64)+"\n="+b64(4))},
		{"near", "", "jwks public", `{"keys":[{"kty":"RSA","kid":"` + hx(16) + `","use":"sig","alg":"RS256","n":"` + b64u(342) + `","e":"AQAB"}]}`},
		{"near", "", "explicit env password", "password: ${DB_PASSWORD}\n"},
		{"near", "", "fixture fake values", `def test_login(client):
    resp = client.post("/login", json={"username": "alice", "password": "password123"})
    api_key = "test-api-key"
    token = "fake-token"
`},
		{"near", "", "minified js", "!function(e,t){var n=e.aBcDeFgHiJkLmNoPqRsT,r=t.zYxWvUtSrQpOnMlKjIhG;return n(r)}(window,document);var Qk3vT9pLmN2xRw8s=function(e){return e.uVwXyZ1234abcdEF}"},
		{"near", "", "webpack chunks", `<script src="/static/js/main.` + hx(8) + `.js"></script><link href="/static/css/main.` + hx(8) + `.chunk.css" rel="stylesheet">`},
		{"near", "", "csp hash", `Content-Security-Policy: script-src 'self' 'sha256-` + b64(43) + `=' 'nonce-` + b64(22) + `=='`},
		{"near", "", "sri", `<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.3.3/dist/js/bootstrap.bundle.min.js" integrity="sha384-` + b64(64) + `" crossorigin="anonymous"></script>`},
		{"near", "", "image digest deployment", "containers:\n  - name: web\n    image: ghcr.io/acme/web@sha256:" + hx(64) + "\n"},
		{"near", "", "terraform state lineage", `{"version": 4, "terraform_version": "1.8.0", "serial": 12, "lineage": "` + uuid() + `"}`},
		{"near", "", "arns", "role_arn = arn:aws:iam::" + digits(12) + ":role/deploy\nsecret_arn = arn:aws:secretsmanager:eu-west-1:" + digits(12) + ":secret:prod/db-AbC123\n"},
		{"near", "", "bcrypt fixture", `INSERT INTO users (email, password_hash) VALUES ('alice@example.com', '$2b$12$` + r.From(secrettest.Alnum+"./", 53) + `');`},
		{"near", "", "vault path", "vault kv get -field=password secret/data/prod/db\n"},
		{"near", "", "masked log", "2024-05-01T10:00:00Z POST /login user=alice password=*** token=[FILTERED]\n"},
		{"near", "", "password policy", "password:\n  min_length: 12\n  pattern: \"^(?=.*[A-Z])(?=.*[0-9]).{12,}$\"\n"},
		{"near", "", "null values", "api_key = None\ntoken: null\npassword: \"\"\nsecret = nil\n"},
		{"near", "", "getpass", `password = getpass.getpass("Database password: ")`},
		{"near", "", "prompt text", "Enter your API key when prompted (you can create one under Settings -> API keys).\n"},
		{"near", "", "token url", "TOKEN_URL=https://auth.acme.io/oauth/token\nTOKEN_ENDPOINT_AUTH_METHOD=client_secret_basic\n"},
		{"near", "", "stripe object ids", `{"customer": "cus_` + an(14) + `", "payment_intent": "pi_` + an(24) + `", "charge": "ch_` + an(24) + `"}`},
		{"near", "", "slack ids", `{"channel": "C0` + uan(9) + `", "user": "U0` + uan(9) + `", "ts": "1718000000.000100"}`},
		{"near", "", "configmap", "kind: ConfigMap\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: checkout,search\n  TIMEZONE: UTC\n"},
		{"near", "", "k8s secret placeholder", "kind: Secret\nstringData:\n  password: <set-me>\n  api-key: REPLACE_ME\n"},
		{"near", "", "docker creds store", `{"auths": {"ghcr.io": {}}, "credsStore": "desktop"}`},
		{"near", "", "pypirc placeholder", "[pypi]\nusername = __token__\npassword = <your PyPI API token>\n"},
		{"near", "", "pip index no creds", "[global]\nindex-url = https://pypi.org/simple\nextra-index-url = https://pypi.acme.io/simple\n"},
		{"near", "", "git urls no creds", "git clone git@github.com:acme/infra.git\ngit clone https://github.com/acme/infra.git\n"},
		{"near", "", "jdbc env password", "spring.datasource.url=jdbc:postgresql://db:5432/app\nspring.datasource.password=${DB_PASSWORD}\n"},
		{"near", "", "odbc trusted", "Driver={ODBC Driver 18 for SQL Server};Server=sql.acme.io;Database=app;Trusted_Connection=yes;"},
		{"near", "", "empty password conn", "Server=localhost;Database=test;User Id=sa;Password=;"},
		{"near", "", "truncated docs key", "Your key looks like sk-proj-abc123...; keep it secret.\n"},
		{"near", "", "pem placeholder body", "-----BEGIN PRIVATE" + " KEY-----\n<paste your key here>\n-----END PRIVATE" + " KEY-----"},
		{"near", "", "ssh fingerprint", "256 SHA256:" + b64(43) + " deploy@ci (ED25519)\n"},
		{"near", "", "pgp fingerprint", "pub   rsa4096 2024-01-01 [SC]\n      " + strings.ToUpper(hx(40)) + "\nuid   Release Signing <release@acme.io>\n"},
		{"near", "", "ethereum address", `const TREASURY = "0x` + hx(40) + `";`},
		{"near", "", "ipfs cid", "ipfs://Qm" + r.From("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 44) + "\n"},
		{"near", "", "test vector", "// RFC 4231 test case 2\nkey  := []byte(\"Jefe\")\ndata := []byte(\"what do ya want for nothing?\")\nwant := \"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843\"\n"},
		{"near", "", "jasypt", "spring.datasource.password=ENC(" + b64(44) + ")\n"},
		{"near", "", "age encrypted file", pem("AGE ENCRYPTED FILE", b64(64)+"\n"+b64(64))},
		{"near", "", "ci cache key", "key: ${{ runner.os }}-node-${{ hashFiles('**/package-lock.json') }}\n"},
		{"near", "", "answer placeholder", "Set your key first: `export OPENAI_API_KEY=<your key>`, then run `python app.py`."},
		{"near", "", "answer gh token", "Run `export GITHUB_TOKEN=$(gh auth token)` so the script reuses your gh login."},
		{"near", "", "secrets.token_hex", "SECRET_KEY = secrets.token_hex(32)\n"},
		{"near", "", "token regex", `var githubToken = regexp.MustCompile(` + "`ghp_[A-Za-z0-9]{36}`" + `)`},
		{"near", "", "github client id", "GITHUB_CLIENT_ID=Iv1." + hx(16) + "\n"},
		{"near", "", "analytics ids", `gtag('config', 'G-` + uan(10) + `'); ga('create', 'UA-` + digits(8) + `-1');`},
		{"near", "", "recaptcha site key", `<div class="g-recaptcha" data-sitekey="6Lc` + b64u(37) + `"></div>`},
		{"near", "", "protobuf base64 fixture", `want := "` + std([]byte("\x0a\x05alice\x10\x2a\x1a\x0bhello world")) + `"`},
		{"near", "", "docs query placeholder", "GET https://api.acme.io/login?user=<user>&password=<password>\n"},
		{"near", "", "masked console", "Password: ••••••••\nAPI key: sk-...a1b2\n"},
		{"near", "", "secret name refs", "- name: DATABASE_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}\n- name: API_TOKEN\n  valueFrom:\n    secretKeyRef: {name: api, key: token}\n"},
		{"near", "", "password field label", `<label for="password">Password</label><input type="password" id="password" name="password" autocomplete="current-password">`},
		{"near", "", "docker compose env refs", "environment:\n  POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it in .env}\n  REDIS_PASSWORD: ${REDIS_PASSWORD}\n"},
		{"near", "", "terraform sensitive var", "variable \"api_token\" {\n  type      = string\n  sensitive = true\n}\nprovider \"acme\" {\n  token = var.api_token\n}\n"},
		{"near", "", "example.com creds", "https://user:pass@example.com/path\nftp://anonymous:anonymous@ftp.example.org/\n"},
		{"near", "", "hex color table", ".btn{color:#1a2b3c;background:#ffcc00;border-color:#0f0f0f}\n"},
		{"near", "", "semver and build ids", "version: 1.42.0+build." + hx(12) + "\nbuild_id: " + digits(10) + "\n"},
		{"near", "", "dummy test constants", "const (\n\ttestAPIKey   = \"dummy\"\n\ttestPassword = \"secret\"\n\ttestToken    = \"test-token\"\n)\n"},
		{"near", "", "oauth scopes", `scopes = ["repo", "read:org", "write:packages"]` + "\ngrant_type=client_credentials\n"},
		{"near", "", "cookie attrs", "Set-Cookie: session=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0\n"},
		{"near", "", "random test seed", "seed: " + digits(19) + "\nshard: 3/8\n"},
		{"near", "", "md5 etag", `ETag: "` + hx(32) + `"` + "\nContent-MD5: " + b64(22) + "==\n"},
		{"near", "", "html data attrs", `<div data-testid="checkout-button" data-analytics-id="` + hx(24) + `"></div>`},
		{"near", "", "gradle deps checksums", "<component group=\"org.slf4j\" name=\"slf4j-api\" version=\"2.0.13\">\n   <artifact name=\"slf4j-api-2.0.13.jar\">\n      <sha256 value=\"" + hx(64) + "\" origin=\"Generated by Gradle\"/>\n   </artifact>\n</component>\n"},
	}
}

// TestScorecardBlind2 scores the second blind set: services caught (each
// has one text) per family, near misses blocked. Every miss and false
// block is printed with its context. Before the rules it led to: 180/212
// (0.849), near misses blocked 2/95. It fails below 0.95 of services or
// above 1% of near misses.
func TestScorecardBlind2(t *testing.T) {
	cases := blind2Corpus()
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	found := scanAll(texts)
	type tally struct{ caught, total int }
	families := map[string]*tally{}
	var caught, total, near, nearBlocked int
	for i, c := range cases {
		if c.service == "" {
			near++
			if len(found[i]) > 0 {
				nearBlocked++
				fmt.Printf("blind2 false block %s: %s\n", strings.Join(found[i], ","), c.context)
			}
			continue
		}
		f := families[c.family]
		if f == nil {
			f = &tally{}
			families[c.family] = f
		}
		f.total++
		total++
		if len(found[i]) > 0 {
			f.caught++
			caught++
		} else {
			fmt.Printf("blind2 miss %s/%s (%s)\n", c.family, c.service, c.context)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(families)) {
		f := families[name]
		scorecard("%-16s %-14s caught %d/%d", "blind2", name, f.caught, f.total)
	}
	rate := float64(caught) / float64(total)
	scorecard("%-16s services caught %.3f (%d/%d)  near misses blocked %.3f (%d/%d)", "blind2",
		rate, caught, total, float64(nearBlocked)/float64(near), nearBlocked, near)
	assert.GreaterOrEqual(t, rate, 0.95, "blind2 services caught")
	assert.LessOrEqual(t, float64(nearBlocked)/float64(near), 0.01, "blind2 near misses blocked")
}
