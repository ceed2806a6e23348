package configcred_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/configcred"
)

// pw is a generated-looking password written for these tests.
const pw = "Tq7-vR2!kW9#pZ4%mX8+"

// secretsOf returns the values Find places, checking every range.
func secretsOf(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	for _, c := range configcred.Find(text) {
		require.True(t, 0 <= c.Start && c.Start < c.End && c.End <= len(text), "range %d:%d", c.Start, c.End)
		assert.NotContains(t, c.KeyPath, pw, "a key path never holds the value")
		out = append(out, text[c.Start:c.End])
	}
	return out
}

func TestFindsCredentials(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"pip.conf url", "[global]\nindex-url = https://deploy:" + pw + "@pypi.corp.internal/simple\n"},
		{"git-credentials", "https://deploy:" + pw + "@git.corp.internal\n"},
		{"pgpass", "db.corp.internal:5432:app:deploy:" + pw + "\n"},
		{"pgpass star", "*:*:*:deploy:" + pw + "\n"},
		{"pypirc", "[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = " + pw + "\n"},
		{"spring properties", "spring.datasource.url=jdbc:postgresql://db/app\nspring.datasource.password=" + pw + "\n"},
		{"spring yaml", "spring:\n  datasource:\n    username: app\n    password: " + pw + "\n"},
		{"netrc", "machine api.corp.internal\n  login deploy\n  password " + pw + "\n"},
		{"netrc one line", "machine api.corp.internal login deploy password " + pw + "\n"},
		{"tfvars", "region = \"eu-west-1\"\ndb_password = \"" + pw + "\"\n"},
		{"wp-config", "<?php\ndefine( 'DB_NAME', 'wp' );\ndefine( 'DB_PASSWORD', '" + pw + "' );\n"},
		{"rails database.yml", "production:\n  adapter: postgresql\n  password: \"" + pw + "\"\n"},
		{"composer auth.json", `{"http-basic": {"repo.corp.internal": {"username": "deploy", "password": "` + pw + `"}}}`},
		{"composer github-oauth", `{"github-oauth": {"github.com": "` + pw + `"}}`},
		{"docker auths", `{"auths": {"registry.corp.internal": {"auth": "` + pw + `"}}}`},
		{"gradle.properties", "org.gradle.jvmargs=-Xmx2g\nmavenPassword=" + pw + "\n"},
		{"ansible inventory", "[web]\nweb1 ansible_host=10.0.0.5 ansible_user=deploy ansible_password=" + pw + "\n"},
		{"my.cnf", "[client]\nuser=app\npassword=" + pw + "\nskip-ssl\n"},
		{"compose env map", "services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: " + pw + "\n"},
		{"compose env list", "services:\n  db:\n    environment:\n      - POSTGRES_PASSWORD=" + pw + "\n"},
		{".env", "DB_HOST=db\nDB_PASSWORD=" + pw + "\n"},
		{".env quoted", "export API_TOKEN=\"" + pw + "\"\n"},
		{".npmrc", "//registry.npmjs.org/:_authToken=" + pw + "\n"},
		{"toml", "[database]\nhost = \"db\"\npassword = \"" + pw + "\"\n"},
		{"rclone", "[remote]\ntype = s3\naccess_key_id = AKIDEXAMPLEID\nsecret_access_key = " + pw + "\n"},
		{"maven settings.xml", "<settings><servers><server><id>corp</id><username>deploy</username><password>" + pw + "</password></server></servers></settings>"},
		{"nuget", `<configuration><packageSourceCredentials><corp><add key="Username" value="deploy" /><add key="ClearTextPassword" value="` + pw + `" /></corp></packageSourceCredentials></configuration>`},
		{"ado connection string", `Server=db.corp.internal;Database=app;User Id=deploy;Password=` + pw + `;`},
		{"libpq dsn", `conn = psycopg2.connect("host=db.corp.internal dbname=app user=deploy password=` + pw + `")`},
		{"jdbc query", "jdbc:mysql://db.corp.internal:3306/app?user=deploy&password=" + pw + "&useSSL=true"},
		{"mongo url", "MONGO=mongodb://deploy:" + pw + "@mongo.corp.internal:27017/app"},
		{"redis url", "cache: redis://:" + pw + "@redis.corp.internal:6379/0"},
		{"uuid in yaml", "api:\n  token: 3f2b8c1e-9d4a-4e7b-a6c5-0f1e2d3c4b5a\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := secretsOf(t, tc.text)
			want := pw
			if strings.Contains(tc.name, "uuid") {
				want = "3f2b8c1e-9d4a-4e7b-a6c5-0f1e2d3c4b5a"
			}
			assert.Contains(t, got, want)
		})
	}
}

func TestAllowsLookAlikes(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"env reference", "DB_PASSWORD=${DB_PASSWORD}\n"},
		{"dollar var", "spring.datasource.password=$DB_PASSWORD\n"},
		{"python interpolation", "[pypi]\npassword = %(PYPI_PASSWORD)s\n"},
		{"erb", "production:\n  password: <%= ENV['DB_PASSWORD'] %>\n"},
		{"template", "password: \"{{ vault_db_password }}\"\n"},
		{"hcl var", "db_password = var.db_password\n"},
		{"php getenv", "<?php\ndefine('DB_PASSWORD', getenv('DB_PASSWORD'));\n"},
		{"placeholder", "password = changeme\n"},
		{"placeholder angle", "[client]\npassword=<your-password>\n"},
		{"sops", "db:\n  password: ENC[AES256_GCM,data:Zm9vYmFy,iv:aXY=,tag:dGFn,type:str]\n"},
		{"ansible vault", "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6162636465\n"},
		{"empty", "password=\n"},
		{"empty yaml", "password:\n"},
		{"url without password", "index-url = https://pypi.corp.internal/simple\n"},
		{"url reference", "DATABASE_URL=postgres://app:${DB_PASSWORD}@db/app\n"},
		{"public key", "stripe:\n  publishable_key: pk_live_notasecretvaluehere\n"},
		{"token url", "token_url = https://auth.corp.internal/oauth/token\n"},
		{"password min length", "password_min_length = 12\n"},
		{"auth type", "auth_type = basic_authentication\n"},
		{"password file", `{"passwordFile": "secrets/db-password.txt"}`},
		{"token path", "token_path = tokens/deploy.token\n"},
		{"secret name", "secret_name: prod-db-credentials\n"},
		{"yaml int", "max_tokens: 4096\n"},
		{"go code", "func f() {\n\ttoken = tokens[0]\n\tpassword := r.FormValue(\"password\")\n}\n"},
		{"prose", "Set the password in your config and keep the token secret.\n"},
		{"pgpass-like time", "12:30:45:00:lunch\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Empty(t, secretsOf(t, tc.text))
		})
	}
}

func TestRangesAreExact(t *testing.T) {
	text := "{\"password\": \"a\\u0041" + pw + "\", \"token\": \"" + pw + "\"}"
	for _, c := range configcred.Find(text) {
		assert.Equal(t, pw, text[c.Start:c.End], "an escaped value is not placed; a plain one is placed exactly")
	}
}

func TestNothingOverMaxText(t *testing.T) {
	text := "password=" + pw + "\n" + strings.Repeat("#\n", configcred.MaxText/2)
	assert.Empty(t, configcred.Find(text))
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"[a]\npassword = x\n", `{"password":"abcdefgh"}`, "a:\n  password: abcdefgh\n", "<a password=\"abcdefgh\"/>",
		"machine m login l password p", "h:5432:d:u:p", "define('DB_PASSWORD','abcdefgh');", "x://u:p@h/", "Server=s;Password=abcdefgh;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, c := range configcred.Find(text) {
			if c.Start < 0 || c.Start >= c.End || c.End > len(text) {
				t.Fatalf("bad range %d:%d of %d", c.Start, c.End, len(text))
			}
		}
	})
}

// TestBoundedWork: texts built to make a careless reader quadratic are
// read in well under a second each.
func TestBoundedWork(t *testing.T) {
	n := configcred.MaxText / 2
	for name, text := range map[string]string{
		"urls without spaces": strings.Repeat("a://b:c", n/7),
		"env keys":            strings.Repeat("PASSWORD_X=abcdefgh12\n", n/22) + strings.Repeat("K=v\n", n/4),
		"open defines":        strings.Repeat("define('DB_PASSWORD', 'x", n/24),
		"deep json":           strings.Repeat(`{"dependencies":`, 5000) + `"x"` + strings.Repeat("}", 5000),
		"one-line yaml":       "{" + strings.Repeat("password: abcdefgh12, ", n/24) + "}",
		"pgpass lines":        strings.Repeat("db.host:5432:app:user:abcdefgh12\n", n/34),
	} {
		start := time.Now()
		configcred.Find(text)
		assert.Less(t, time.Since(start), 2*time.Second, name)
	}
}
