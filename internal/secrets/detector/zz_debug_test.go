package detector_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

func TestDebugCfg(t *testing.T) {
	for _, f := range secrettest.Builtin().MustScan(os.Getenv("DBG_TEXT")) {
		fmt.Println("FOUND", f.RuleID, f.Start, f.End, f.Secret)
	}
}
