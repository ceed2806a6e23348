package keyname_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/secrets/keyname"
)

func TestSecretKey(t *testing.T) {
	for _, k := range []string{"password", "db_password", "DB_PASSWORD", "_authToken", "auth", "secret_access_key", "PWD", "pwd",
		"client_secret", "api_key", "apiKey", "ansible_password", "ClearTextPassword", "secret_key_base"} {
		assert.True(t, keyname.SecretKey(k), k)
	}
	// Keys that describe a secret rather than hold one.
	for _, k := range []string{"public_key", "publishable_key", "STRIPE_PUBLISHABLE_KEY", "token_url", "password_min_length",
		"auth_type", "secret_name", "passwordFile", "token_path", "max_tokens", "cache_key", "next_page_token",
		"password_hash", "hashed_password", "encrypted_api_key", "password_regex", "api_key_id"} {
		assert.False(t, keyname.SecretKey(k), k)
	}
}
