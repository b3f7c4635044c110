package contactfields

import "testing"

func TestTechnologyOf(t *testing.T) {
	for vendor, want := range map[string]string{
		"stripe.com": "stripe", "hs-scripts.com": "hubspot", "maps.googleapis.com": "google maps",
		"www.booking.com": "booking", "zdassets.com": "zendesk",
	} {
		if got := technologyOf(vendor); got != want {
			t.Errorf("technologyOf(%q) = %q, want %q", vendor, got, want)
		}
	}
}
