package e2e

import "math/rand/v2"

// Fake credentials for scenarios, built at run time so the repository holds
// no string a secret scanner would flag. They have the shape and entropy of
// real ones (gitleaks finds them) and are different for every seed, so one
// scenario's secret never appears in another's output by accident.

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

func randomString(seed uint64, alphabet string, n int) string {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// GitHubToken is a classic personal access token (gitleaks rule github-pat):
// "ghp_" and 36 letters and digits.
func GitHubToken(seed uint64) string {
	return "gh" + "p_" + randomString(seed, alnum, 36)
}

// AWSAccessKeyID is an access key id (gitleaks rule aws-access-token):
// "AKIA" and 16 characters of base32.
func AWSAccessKeyID(seed uint64) string {
	return "AK" + "IA" + randomString(seed, base32, 16)
}
