package allapp_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// TestEveryFamilyComposesAlone composes each family's composer on its own core, as
// its Lambda does: it must build without the others, serve only its own family's
// routes, and have a function under functions/. Together the composers cover every
// family httpapi declares, once.
func TestEveryFamilyComposesAlone(t *testing.T) {
	var composed []httpapi.Family
	for _, c := range allapp.Families() {
		fam := c.Family()
		composed = append(composed, fam)
		t.Run(string(fam), func(t *testing.T) {
			cfg, err := config.Load(func(k string) string { return map[string]string{"FIRMO_DATA_DIR": t.TempDir()}[k] })
			if err != nil {
				t.Fatal(err)
			}
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			core, err := localbackend.Build(context.Background(), cfg, log, c)
			if err != nil {
				t.Fatal(err)
			}
			defer core.Close()
			if got := core.Server.Families(); len(got) != 1 || got[0] != fam {
				t.Errorf("the %s composer adds routes of families %v", fam, got)
			}
			if _, err := os.Stat(filepath.Join("..", "..", "..", "functions", string(fam), "main.go")); err != nil {
				t.Errorf("family %s has no Lambda: %v", fam, err)
			}
		})
	}
	want := httpapi.Families()
	slices.Sort(want)
	slices.Sort(composed)
	if !slices.Equal(composed, want) {
		t.Errorf("composers cover families %v, httpapi declares %v", composed, want)
	}
}
