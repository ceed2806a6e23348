package detector_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/detector"
)

// grammarFormat is one configuration file format with a credential in it:
// text is the file with {v} where the value goes; quote says how a writer
// of the format writes a value that needs quoting (YAML and .env quote a
// value that starts with an indicator or holds a comment character).
type grammarFormat struct {
	name, text string
	quote      func(string) string
}

func asIs(v string) string { return v }

// yamlQuote quotes a plain YAML value the way a YAML writer does when it
// must (an indicator first, or " #" / ": " inside).
func yamlQuote(v string) string {
	if v == "" || strings.ContainsAny(v[:1], "!#%@&*|>'\"-?:,[]{}`") || strings.Contains(v, " #") || strings.Contains(v, ": ") {
		return `"` + v + `"`
	}
	return v
}

// envQuote quotes a .env value holding # (dotenv reads # as a comment).
func envQuote(v string) string {
	if strings.Contains(v, "#") {
		return `"` + v + `"`
	}
	return v
}

// grammarFormats are the formats the scorecard writes. Hosts are made up
// (corp.internal); every value is generated.
func grammarFormats() []grammarFormat {
	return []grammarFormat{
		{"pip.conf index-url", "[global]\nindex-url = https://deploy:{v}@pypi.corp.internal/simple\ntimeout = 60\n", asIs},
		{".git-credentials", "https://deploy:{v}@git.corp.internal\n", asIs},
		{".pgpass", "db.corp.internal:5432:app:deploy:{v}\n*:*:*:report:{v}\n", asIs},
		{".pypirc", "[distutils]\nindex-servers =\n    corp\n\n[corp]\nrepository = https://pypi.corp.internal/\nusername = deploy\npassword = {v}\n", asIs},
		{"spring properties", "spring.datasource.url=jdbc:postgresql://db.corp.internal:5432/app\nspring.datasource.username=app\nspring.datasource.password={v}\n", asIs},
		{"spring yaml", "spring:\n  datasource:\n    url: jdbc:postgresql://db.corp.internal:5432/app\n    username: app\n    password: {v}\n", yamlQuote},
		{".netrc", "machine api.corp.internal\n  login deploy\n  password {v}\n", asIs},
		{"terraform.tfvars", "region      = \"eu-west-1\"\ndb_username = \"app\"\ndb_password = \"{v}\"\n", asIs},
		{"wp-config.php", "<?php\ndefine( 'DB_NAME', 'wordpress' );\ndefine( 'DB_USER', 'wp' );\ndefine( 'DB_PASSWORD', '{v}' );\ndefine( 'DB_HOST', 'localhost' );\n", asIs},
		{"rails database.yml", "default: &default\n  adapter: postgresql\n  pool: 5\n\nproduction:\n  <<: *default\n  database: app_production\n  username: app\n  password: {v}\n", yamlQuote},
		{"composer auth.json", "{\n  \"http-basic\": {\n    \"repo.corp.internal\": {\n      \"username\": \"deploy\",\n      \"password\": \"{v}\"\n    }\n  }\n}\n", asIs},
		{"gradle.properties", "org.gradle.jvmargs=-Xmx2g\nartifactoryUser=deploy\nartifactoryPassword={v}\n", asIs},
		{"ansible inventory", "[web]\nweb1 ansible_host=10.0.4.11 ansible_user=deploy ansible_password={v}\n", asIs},
		{"my.cnf", "[client]\nuser=app\npassword={v}\nhost=db.corp.internal\n", asIs},
		{"compose environment map", "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: {v}\n", yamlQuote},
		{"compose environment list", "services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_USER=app\n      - POSTGRES_PASSWORD={v}\n", asIs},
		{".env", "DB_HOST=db.corp.internal\nDB_USER=app\nDB_PASSWORD={v}\n", envQuote},
		{".npmrc", "registry=https://npm.corp.internal/\n//npm.corp.internal/:_authToken={v}\nalways-auth=true\n", asIs},
		{".gitconfig", "[user]\n\tname = Deploy Bot\n[github]\n\tuser = deploy\n\ttoken = {v}\n", asIs},
		{"rclone.conf", "[backup]\ntype = sftp\nhost = files.corp.internal\nuser = deploy\npass = {v}\n", asIs},
		{".s3cfg", "[default]\nhost_base = s3.corp.internal\nsecret_key = {v}\nuse_https = True\n", asIs},
		{"config.toml", "[database]\nhost = \"db.corp.internal\"\nuser = \"app\"\npassword = \"{v}\"\n", asIs},
		{"maven settings.xml", "<settings>\n  <servers>\n    <server>\n      <id>corp</id>\n      <username>deploy</username>\n      <password>{v}</password>\n    </server>\n  </servers>\n</settings>\n", asIs},
		{"NuGet.Config", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<configuration>\n  <packageSourceCredentials>\n    <corp>\n      <add key=\"Username\" value=\"deploy\" />\n      <add key=\"ClearTextPassword\" value=\"{v}\" />\n    </corp>\n  </packageSourceCredentials>\n</configuration>\n", asIs},
		{"Web.config", "<configuration>\n  <connectionStrings>\n    <add name=\"Main\" connectionString=\"Server=db.corp.internal;Database=App;User Id=app;Password={v};\" />\n  </connectionStrings>\n</configuration>\n", asIs},
		{"appsettings.json", "{\n  \"ConnectionStrings\": {\n    \"Main\": \"Server=db.corp.internal;Database=App;User Id=app;Password={v};\"\n  }\n}\n", asIs},
		{"JDBC URL", "db.url=jdbc:mysql://db.corp.internal:3306/app?user=app&password={v}&useSSL=true\n", asIs},
		{"libpq DSN", "DATABASE_DSN=\"host=db.corp.internal port=5432 user=app password={v} dbname=app\"\n", asIs},
		{"MongoDB URL", "MONGO_URL=mongodb://app:{v}@mongo.corp.internal:27017/app?authSource=admin\n", asIs},
		{"Redis URL in YAML", "cache:\n  url: redis://:{v}@cache.corp.internal:6379/0\n", asIs},
		{"docker config.json", "{\n  \"auths\": {\n    \"registry.corp.internal\": {\n      \"auth\": \"{v}\"\n    }\n  }\n}\n", asIs},
		{"Kubernetes Secret stringData", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: {v}\n", yamlQuote},
		{"properties colon", "db.user: app\ndb.password: {v}\n", asIs},
		{"odbc.ini", "[corp]\nDriver=PostgreSQL\nServername=db.corp.internal\nUID=app\nPWD={v}\n", asIs},
		{"GitHub Actions env", "jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n      DEPLOY_TOKEN: {v}\n", yamlQuote},
	}
}

// grammarValue is one generated value of a kind: 20 characters of letters,
// digits and !#%+-_, a UUID, or 40 hex digits.
func grammarValue(rng *rand.Rand, kind int) string {
	const mixed = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#%+-_"
	const hex = "0123456789abcdef"
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	switch kind {
	case 0:
		return pick(mixed, 20)
	case 1:
		return pick(hex, 8) + "-" + pick(hex, 4) + "-4" + pick(hex, 3) + "-" + pick("89ab", 1) + pick(hex, 3) + "-" + pick(hex, 12)
	default:
		return pick(hex, 40)
	}
}

// grammarLookAlikes are values in credential positions that are not
// secrets: references, placeholders, ciphertext, nothing.
func grammarLookAlikes() []string {
	return []string{
		"${DB_PASSWORD}",
		"{{ .Values.db.password }}",
		"changeme",
		"<your-password>",
		"your-password-here",
		"ENC[AES256_GCM,data:k3JmQ1bXe9Y=,iv:Qm9ndXNJdkJ5dGVzMTIzNA==,tag:VGFnVGFnVGFnVGFnVGFnVA==,type:str]",
		"",
	}
}

func fill(f grammarFormat, v string) string { return strings.ReplaceAll(f.text, "{v}", f.quote(v)) }

// caughtAt reports whether a finding covers the value written at the first
// {v} of the format.
func caughtAt(found []secrets.Finding, text, v string) bool {
	for _, f := range found {
		if f.Secret != "" && (strings.Contains(f.Secret, v) || len(f.Secret) >= 8 && strings.Contains(v, f.Secret)) {
			return true
		}
		if f.Start <= strings.Index(text, v) && strings.Index(text, v)+len(v) <= f.End {
			return true
		}
	}
	return false
}

// TestScorecardGrammar: generated values of three kinds in 35 formats,
// through the whole detector, must be caught (≥ 0.95); references,
// placeholders, ciphertext and empty values in the same places must not
// be blocked (≤ 0.05).
func TestScorecardGrammar(t *testing.T) {
	formats := grammarFormats()
	require.GreaterOrEqual(t, len(formats), 30)
	rate, falseRate := grammarScorecard(t, newScanner(t, secrets.Options{}), "grammar")
	assert.GreaterOrEqual(t, rate, 0.95, "generated credentials caught")
	assert.LessOrEqual(t, falseRate, 0.05, "look-alikes blocked")
	// The same values with the grammar reader off: what the rules alone
	// did (a figure for the record, not a goal).
	grammarScorecard(t, newScanner(t, secrets.Options{DisabledRules: []string{"config-credential"}}), "grammar-off")
}

// grammarScorecard scans every format with generated values and with
// look-alikes, and returns the share caught and the share blocked.
func grammarScorecard(t *testing.T, s scanner, label string) (rate, falseRate float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(41, 2026))
	formats := grammarFormats()
	const perKind = 12
	caught, total := 0, 0
	var misses []string
	for _, f := range formats {
		fc, ft := 0, 0
		for kind := range 3 {
			for range perKind {
				v := grammarValue(rng, kind)
				text := fill(f, v)
				ft++
				if caughtAt(s.Scan(text), text, v) {
					fc++
				} else if len(misses) < 20 {
					misses = append(misses, fmt.Sprintf("%s: %q", f.name, text))
				}
			}
		}
		caught, total = caught+fc, total+ft
		if fc < ft {
			t.Logf("%s %s: caught %d/%d", label, f.name, fc, ft)
		}
	}
	blocked, alike := 0, 0
	var falses []string
	for _, f := range formats {
		for _, v := range grammarLookAlikes() {
			text := fill(f, v)
			alike++
			if found := s.Scan(text); len(found) > 0 {
				blocked++
				falses = append(falses, fmt.Sprintf("%s %q: %s", f.name, v, found[0].RuleID))
			}
		}
	}
	if label == "grammar" {
		for _, m := range misses {
			t.Logf("missed %s", m)
		}
		for _, m := range falses {
			t.Logf("look-alike blocked %s", m)
		}
	}
	rate, falseRate = float64(caught)/float64(total), float64(blocked)/float64(alike)
	line := fmt.Sprintf("%-16s %d formats  caught %.3f (%d/%d)  look-alikes blocked %.3f (%d/%d)",
		label, len(formats), rate, caught, total, falseRate, blocked, alike)
	t.Logf("scorecard: %s", line)
	scorecard("%s", line)
	return rate, falseRate
}

// TestGrammarDocExamples checks the examples of docs/secrets.md's "Secrets
// by the file's grammar" table through the detector: each must-block
// example is found, each must-allow example is not.
func TestGrammarDocExamples(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "secrets.md"))
	require.NoError(t, err)
	doc := string(data)
	start := strings.Index(doc, "## Secrets by the file's grammar")
	require.GreaterOrEqual(t, start, 0, "the section is in docs/secrets.md")
	section := doc[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	s := newScanner(t, secrets.Options{})
	span := regexp.MustCompile("`([^`]+)`")
	rows, blocks, allows := 0, 0, 0
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| Format") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		require.Len(t, cells, 5, "a row of five cells: %s", line)
		rows++
		format := strings.TrimSpace(cells[0])
		for _, m := range span.FindAllStringSubmatch(cells[3], -1) {
			text := strings.ReplaceAll(m[1], `\n`, "\n")
			blocks++
			assert.NotEmpty(t, s.Scan(text), "%s: must block %q", format, text)
		}
		for _, m := range span.FindAllStringSubmatch(cells[4], -1) {
			text := strings.ReplaceAll(m[1], `\n`, "\n")
			allows++
			found := s.Scan(text)
			var ids []string
			for _, f := range found {
				ids = append(ids, f.RuleID)
			}
			assert.Empty(t, found, "%s: must allow %q (found by %v)", format, text, ids)
		}
	}
	require.GreaterOrEqual(t, rows, 15, "the table's rows")
	t.Logf("%d formats, %d must-block and %d must-allow examples", rows, blocks, allows)
}

// TestPlaceholderWordsInsideAStrongPassword: a value that merely holds a
// placeholder's word (1234, fake, sample) is still a secret where a
// password goes, and never drops a rule's finding of it.
func TestPlaceholderWordsInsideAStrongPassword(t *testing.T) {
	d, err := detector.New(secrets.Options{})
	require.NoError(t, err)
	for _, text := range []string{
		"[client]\npassword = Tr0ub4dor&1234Xq9\n",
		"spring.datasource.password=Kq8#fakeR2vLm9Zp\n",
		"db:\n  password: vQ7sampleR2mZ9xKw!\n",
	} {
		assert.NotEmpty(t, d.Scan(context.Background(), text), text)
	}
	for _, text := range []string{"[client]\npassword = changeme\n", "db:\n  password: <your-password>\n", "password: test1234\n"} {
		assert.Empty(t, d.Scan(context.Background(), text), text)
	}
}
