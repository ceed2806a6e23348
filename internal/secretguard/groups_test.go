package secretguard

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/edit"
)

func TestScanGroups(t *testing.T) {
	spans := []edit.Span{{Start: 0, End: 10}, {Start: 20, End: 30}, {Start: 40, End: 100}, {Start: 150, End: 400}, {Start: 410, End: 420}}
	assert.Equal(t, []edit.Span{{Start: 0, End: 100}, {Start: 150, End: 400}, {Start: 410, End: 420}}, scanGroups(spans, 100))
	assert.Equal(t, []edit.Span{{Start: 0, End: 420}}, scanGroups(spans, 1<<20))
	assert.Nil(t, scanGroups(nil, 100))
}
