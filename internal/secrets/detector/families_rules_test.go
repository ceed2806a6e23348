package detector_test

import (
	"strings"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// familyRuleCases are the examples of the rules added for issue #26's
// missed families (rules.toml, "Families of issue #26"): each rule has at
// least two texts it must find and two it must not.
func familyRuleCases() []precisionCase {
	r := secrettest.NewRand(2626)
	an := func(n int) string { return r.From(secrettest.Alnum, n) }
	lan := func(n int) string { return r.From(secrettest.LowerAlnum, n) }
	hx := func(n int) string { return r.From(secrettest.Hex, n) }
	uuid := func() string { return hx(8) + "-" + hx(4) + "-" + hx(4) + "-" + hx(4) + "-" + hx(12) }
	pw := func() string { return "Vq" + an(8) + "7#k" }
	django := func(n int) string { return r.From("abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)", n) }
	ibm := func() string { return "k" + r.From(secrettest.Base64URL, 41) + "7Q" }
	bootstrap := func() string { return lan(5) + "7." + lan(14) + "4q" }
	return []precisionCase{
		// Legacy Microsoft Teams webhooks.
		{"teams legacy webhook", "TEAMS_WEBHOOK=https://outlook.office.com/webhook/" + uuid() + "@" + uuid() + "/IncomingWebhook/" + hx(32) + "/" + uuid(), "teams-legacy-webhook"},
		{"teams legacy webhook, office365 host", `url: "https://outlook.office365.com/webhook/` + uuid() + "@" + uuid() + "/IncomingWebhook/" + hx(32) + "/" + uuid() + `"`, "teams-legacy-webhook"},
		{"outlook webhook documentation path", "See https://outlook.office.com/webhook/ for the connector settings.", ""},
		{"outlook mail url", "https://outlook.office.com/mail/inbox/id/" + an(40), ""},

		// Passwords on Windows and PowerShell command lines.
		{"psexec -p", `psexec \\10.0.0.7 -u ACME\deploy -p ` + pw() + ` cmd /c ipconfig`, "windows-cli-password"},
		{"connect-viserver -password", "Connect-VIServer -Server vc01.acme.io -User administrator@vsphere.local -Password '" + pw() + "'", "windows-cli-password"},
		{"convertto-securestring asplaintext", `$pw = ConvertTo-SecureString "` + pw() + `" -AsPlainText -Force`, "windows-cli-password"},
		{"new-localuser -password", "New-LocalUser -Name svc -Password " + pw(), "windows-cli-password"},
		{"psexec without a password", `psexec \\10.0.0.7 -s -i cmd.exe`, ""},
		{"-password from a variable", "Connect-VIServer -Server vc01 -User admin -Password $VcPassword", ""},
		{"-password from a prompt", "New-LocalUser -Name svc -Password (Read-Host -AsSecureString)", ""},
		{"convertto-securestring of an encrypted string", "$s = ConvertTo-SecureString " + hx(60) + "\n", ""},

		// Secrets bundled into browser code.
		{"react app password", "REACT_APP_ADMIN_PASSWORD=" + pw(), "frontend-bundled-secret"},
		{"vite secret", `VITE_API_SECRET="` + an(24) + `"`, "frontend-bundled-secret|keyword-assigned-secret"},
		{"react app secret from the environment", "const s = process.env.REACT_APP_CLIENT_SECRET;", ""},
		{"react app password placeholder", "REACT_APP_PASSWORD=your-password-here", ""},
		{"react app password flag", "REACT_APP_SHOW_PASSWORD=true", ""},

		// Django secret keys.
		{"django insecure key", "SECRET_KEY = 'django-insecure-" + django(50) + "'", "django-insecure-key"},
		{"django key, startproject alphabet", `SECRET_KEY = "` + "k7" + django(46) + "q2" + `"`, "django-secret-key|keyword-assigned-secret|generic-api-key"},
		{"django key from the environment", "SECRET_KEY = os.environ['DJANGO_SECRET_KEY']", ""},
		{"django insecure prefix in prose", "startproject writes a key that starts with django-insecure- on purpose.", ""},

		// PHPMailer and other PHP objects.
		{"phpmailer password", "$mail->Username = 'noreply@acme.io';\n$mail->Password = '" + pw() + "';", "php-object-password"},
		{"smtp password property", `$smtp->Password = "` + an(14) + `4k";`, "php-object-password|password-assigned|keyword-assigned-secret"},
		{"phpmailer password from env", "$mail->Password = getenv('SMTP_PASSWORD');", ""},
		{"phpmailer password placeholder", "$mail->Password = 'your-smtp-password';", ""},

		// Kubernetes bootstrap tokens.
		{"kubeadm join token", "kubeadm join 10.0.0.10:6443 --token " + bootstrap() + " --discovery-token-ca-cert-hash sha256:" + hx(64), "kubernetes-bootstrap-token"},
		{"kubeadm config bootstrap token", "apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nbootstrapTokens:\n- groups:\n  - system:bootstrappers:kubeadm:default-node-token\n  token: " + bootstrap() + "\n  ttl: 24h0m0s\n", "kubernetes-bootstrap-token"},
		{"bootstrap token secret", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: bootstrap-token-" + lan(6) + "\ntype: bootstrap.kubernetes.io/token\nstringData:\n  token-id: " + lan(6) + "\n  token-secret: " + lan(14) + "5x\n", "kubernetes-bootstrap-token"},
		{"kubeadm documentation token", "kubeadm join --token abcdef.0123456789abcdef 10.0.0.10:6443", ""},
		{"kubeadm join from a variable", `kubeadm join 10.0.0.10:6443 --token "$JOIN_TOKEN" --discovery-token-unsafe-skip-ca-verification`, ""},
		{"bootstrap css file", `<link href="bootstrap.min.css" rel="stylesheet"> token: main.bootstrapcssfile`, ""},

		// IBM Cloud and SoftLayer.
		{"ibm cloud api key", "IBMCLOUD_API_KEY=" + ibm(), "ibm-cloud-api-key"},
		{"ibmcloud login --apikey", "ibmcloud login --apikey " + ibm() + " -r us-south", "ibm-cloud-api-key"},
		{"softlayer api key", "softlayer_api_key: " + hx(62) + "9a", "ibm-cloud-api-key|keyword-assigned-hex"},
		{"ibmcloud login with sso", "ibmcloud login --sso -r us-south", ""},
		{"ibm api key from a file", "ibmcloud login --apikey @~/.bluemix/apikey.json", ""},

		// Services only their name identifies.
		{"service named alone", `cloudsmith: "` + hx(40) + `"`, "service-named-credential|keyword-assigned-hex|generic-api-key"},
		{"service key of 14 characters", "mailjet_key = '" + an(12) + "4k'", "service-named-credential"},
		{"service with mixed case, no digit", `codemagic_token: "` + r.From("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 40) + `"`, "service-named-credential|keyword-assigned-secret|generic-api-key"},
		{"service name holding a version", "bugsnag: 7.22.3", ""},
		{"service name holding a package", `"todoist": "todoist-api-typescript/v3"`, ""},
		{"service ids and urls", "cloudsmith_org: acme-corp-2024\nmailjet_url: https://api.mailjet.com/v3.1/send\ncircleci_project_id: " + uuid(), ""},

		// Prefixed tokens gitleaks' defaults find only next to a vendor name.
		{"groq key", `client = Groq(api_key="gsk_` + an(52) + `")`, "prefixed-token-extra"},
		{"openrouter key", "OPENROUTER_KEY=sk-or-v1-" + hx(64), "prefixed-token-extra"},
		{"new relic user key alone", "NRAK-" + r.From("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 27), "prefixed-token-extra"},
		{"stripe webhook secret", `endpointSecret = "whsec_` + an(32) + `"`, "prefixed-token-extra|keyword-assigned-secret"},
		{"prefix words in prose", "Groq keys start with gsk_ and Figma tokens with figd_; see the docs.", ""},
		{"prefix with a short body", "rnd_" + an(12) + " tvly-" + an(10), ""},
		{"repeated body", "r8_" + strings.Repeat("a", 37), ""},

		// Google OAuth refresh tokens.
		{"google refresh token", `{"refresh_token": "1//0` + r.From(secrettest.Base64URL, 90) + `"}`, "google-oauth-refresh-token|keyword-assigned-secret|generic-api-key"},
		{"google refresh token alone", "1//0" + r.From(secrettest.Base64URL, 80), "google-oauth-refresh-token"},
		{"fraction and url", "ratio 1//0 and https://host//0path", ""},
		{"short refresh-like", "1//0" + an(20), ""},

		// Passwords on other tools' command lines.
		{"gpg passphrase", "gpg --batch --passphrase '" + pw() + "' -d backup.gpg", "tool-password-flag"},
		{"keytool storepass", "keytool -list -keystore app.jks -storepass " + pw(), "tool-password-flag"},
		{"openssl passout", "openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:" + pw(), "tool-password-flag"},
		{"PGPASSWORD before psql", "PGPASSWORD=" + pw() + " psql -h db -U app", "tool-password-flag"},
		{"gpg passphrase from a file", "gpg --batch --passphrase-file /run/secrets/gpg -d backup.gpg", ""},
		{"keytool storepass from a variable", `keytool -list -keystore app.jks -storepass "$STOREPASS"`, ""},
		{"openssl passin env", "openssl rsa -in key.pem -passin env:KEY_PASS", ""},

		// Azure service keys.
		{"apim subscription key header", `-H "Ocp-Apim-Subscription-Key: ` + hx(32) + `"`, "azure-service-key"},
		{"functions key in a url", "curl https://orders-fn.azurewebsites.net/api/orders?code=" + r.From(secrettest.Base64URL, 54) + "==", "azure-service-key|url-query-credential"},
		{"apim git credential", "git&202612310000&" + r.From(secrettest.Alnum+"+/", 86) + "==", "azure-service-key"},
		{"apim header name alone", "Send the Ocp-Apim-Subscription-Key header with your key.", ""},
		{"functions url with an anonymous trigger", "https://orders-fn.azurewebsites.net/api/health?code=", ""},

		// Kubeconfig client keys.
		{"kubeconfig client key", "    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo" + r.From(secrettest.Alnum+"+/", 200) + "=", "kubeconfig-client-key"},
		{"kubeconfig client key, json", `"client-key-data": "LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk` + r.From(secrettest.Alnum+"+/", 160) + `"`, "kubeconfig-client-key"},
		{"kubeconfig client certificate", "    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk" + r.From(secrettest.Alnum+"+/", 200), ""},
		{"kubeconfig client key file", "    client-key: /etc/kubernetes/pki/admin.key", ""},

		// Secrets written as the fallback of an environment lookup.
		{"js env fallback", "const token = process.env.API_TOKEN || '" + an(30) + "7q';", "env-default-secret|keyword-assigned-secret|generic-api-key"},
		{"python getenv fallback", `key = os.getenv("STRIPE_KEY", "` + "Q7" + an(24) + `4z")`, "env-default-secret|keyword-assigned-secret|generic-api-key"},
		{"ruby env fetch default", `stripe_key = ENV.fetch("STRIPE_KEY", "` + "a9" + an(20) + `Z3")`, "env-default-secret|keyword-assigned-secret|generic-api-key"},
		{"fallback to a placeholder", "const token = process.env.API_TOKEN || 'changeme-in-production';", ""},
		{"fallback to another variable", `key = os.getenv("API_KEY", DEFAULT_API_KEY)`, ""},
		{"fallback to an empty value", "${DB_PASSWORD:-}", ""},

		// Rules for TruffleHog's families (trufflehog-dev scorecard).
		{"atlassian data center pat", "CONFLUENCE_PAT=NDU2Nzg5MDEyMzQ1O" + r.From("ghijklmnopqrstuv", 1) + an(26), "atlassian-datacenter-pat|keyword-assigned-secret"},
		{"jira data center pat in a header", `jira: curl -H "Authorization: Bearer MTIzNDU2Nzg5MDEyO` + r.From("ghijklmnopqrstuv", 1) + an(26) + `"`, "atlassian-datacenter-pat|authorization-header-token"},
		{"base64 of words near jira", "jira: " + "SGVsbG8gd29ybGQsIHRoaXMgaXMgbm90IGEgdG9rZW4h", ""},
		{"atlassian shape without the product", "NDU2Nzg5MDEyMzQ1Omabcdefghijklmnopqrstuvwxyz", ""},
		{"fly.io macaroon", "FLY_API_TOKEN='FlyV1 fm2_" + r.From(secrettest.Alnum+"+/=,_", 200) + "'", "flyio-macaroon|keyword-assigned-secret"},
		{"fly.io macaroon in a header", `-H "Authorization: FlyV1 fm1r_` + r.From(secrettest.Alnum+"+/", 150) + `"`, "flyio-macaroon|authorization-header-token"},
		{"fly.io scheme in prose", "Fly tokens are sent as FlyV1 fm2_... in the Authorization header.", ""},
		{"fly.io short value", "FlyV1 fm2_" + an(20), ""},
		{"vault approle secret id", "role_id = \"" + uuid() + "\"\nsecret_id = \"" + uuid() + "\"", "vault-approle-secret-id"},
		{"vault secret id in json", `{"role_id": "` + uuid() + `", "secret_id": "` + uuid() + `"}`, "vault-approle-secret-id"},
		{"secret id that is a name", `secret_id = "prod/payments/stripe"`, ""},
		{"zero secret id", "secret_id: 00000000-0000-0000-0000-000000000000", ""},
		{"mailgun sending key", "MAILGUN_SENDING_KEY=" + hx(32) + "-" + hx(8) + "-" + hx(8), "mailgun-sending-key|keyword-assigned-secret|keyword-assigned-hex"},
		{"mailgun sending key in code", `mailgun.client({username: 'api', key: '` + hx(32) + "-" + hx(8) + "-" + hx(8) + `'})`, "mailgun-sending-key|keyword-assigned-secret"},
		{"mailgun and a uuid", "mailgun message id " + uuid(), ""},
		{"hex dashes without mailgun", hx(32) + "-" + hx(8) + "-" + hx(8), ""},
		{"zapier catch hook, one segment", "ZAPIER_URL=https://hooks.zapier.com/hooks/catch/" + an(16), "zapier-catch-hook|webhook-url"},
		{"zapier catch hook, two segments", "https://hooks.zapier.com/hooks/catch/" + r.From("0123456789", 7) + "/" + lan(6) + "/", "zapier-catch-hook|webhook-url"},
		{"zapier docs path", "Zapier hooks live under https://hooks.zapier.com/hooks/catch/ and need an id.", ""},
		{"zapier other path", "https://hooks.zapier.com/hooks/standard/" + an(16), ""},
		{"hubspot client with a legacy key", `const hs = new HubSpotAPI("` + uuid() + `");`, "hubspot-legacy-api-key"},
		{"hapikey query", "https://api.hubapi.com/contacts/v1/lists/all/contacts/all?hapikey=" + uuid(), "hubspot-legacy-api-key|url-query-credential"},
		{"hubspot portal id", "hubspot_portal_id = 4400123", ""},
		{"hubspot form guid", `hbspt.forms.create({ portalId: "4400123", formId: "` + uuid() + `" });`, ""},
		{"github oauth pair", `oauth = OAuth2Session(github_app, 'Iv1.` + hx(16) + `', '` + hx(40) + `')`, "github-oauth-client-pair|generic-api-key"},
		{"github client id and secret tuple", `github_oauth = ('` + an(20) + `', '` + hx(40) + `')`, "github-oauth-client-pair"},
		{"github commit pair", `github: ('release-v2.3.4-final0', '` + strings.Repeat("0", 40) + `')`, ""},
		{"github repo and sha", `github_checkout('actions/checkout', '` + hx(40) + `')`, ""},

		// Prefixes common words hold, as rules of their own.
		{"airtable pat alone", "pat" + an(14) + "." + hx(64), "airtable-pat-bare"},
		{"airtable pat in json", `{"token": "pat` + an(14) + "." + hx(64) + `"}`, "airtable-pat-bare|keyword-assigned-secret"},
		{"path and pattern", "path.join(dir, name); pattern.match(x); patch." + hx(64), ""},
		{"pat prefix, short hex", "pat" + an(14) + "." + hx(20), ""},
		{"dropbox short-lived token alone", "sl." + r.From(secrettest.Base64URL, 140), "dropbox-short-lived-token-bare"},
		{"dropbox sl.u. token", `headers: {Authorization: "Bearer sl.u.` + r.From(secrettest.Base64URL, 150) + `"}`, "dropbox-short-lived-token-bare|authorization-header-token"},
		{"ssl and xsl names", "ssl.SSLContext(); xsl.transform(); sl.next()", ""},
		{"sl. with a short body", "sl." + an(40), ""},
		{"notion legacy token", `const notion = new Client({ auth: "secret_` + an(43) + `" })`, "notion-legacy-token|keyword-assigned-secret"},
		{"notion legacy token alone", "secret_" + an(43), "notion-legacy-token"},
		{"secret_ identifiers", "secret_key_base = Rails.application.credentials.secret_key_base_for_the_production_env_x", ""},
		{"secret_ with a short body", "secret_" + an(20), ""},
		{"klaviyo private key", "KLAVIYO_PRIVATE_KEY=pk_" + hx(34), "pk-private-key-bare|keyword-assigned-secret|keyword-assigned-hex"},
		{"clickup personal token", `headers: { Authorization: "pk_` + r.From("0123456789", 8) + "_" + r.From("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 32) + `" }`, "pk-private-key-bare"},
		{"stripe publishable key", "pk_live_" + an(24), ""},
		{"django pk field", "pk_field = models.AutoField(primary_key=True); pk_" + hx(10), ""},
		{"twitter bearer token alone", "AAAAAAAAAAAAAAAAAAAAA" + an(90), "twitter-bearer-token-bare"},
		{"twitter bearer token in a header", `-H "Authorization: Bearer AAAAAAAAAAAAAAAAAAAAA` + an(30) + "%2B" + an(60) + `"`, "twitter-bearer-token-bare|authorization-header-token"},
		{"base64 blob of zeros", "data:application/wasm;base64,AAAAAAAAAAAAAAAAAAAAA" + an(90) + "+/" + an(40), ""},
		{"short run after the A's", "AAAAAAAAAAAAAAAAAAAAA" + an(20), ""},
	}
}

func TestPrecisionFamilyRules(t *testing.T) { checkPrecisionCases(t, familyRuleCases()) }
