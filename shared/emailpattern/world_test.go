package emailpattern_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/world"
)

// worldEval learns the patterns of a world from its listed addresses (as the contact
// store holds them) and grades them against the world's mail truth.
type worldEval struct {
	domains3, top1OK int // domains with at least three listed addresses; those learned right
	pred             []float64
	outcome          []bool
}

func evalWorld(companies int) worldEval {
	w := world.New(world.Options{Seed: 1, Companies: companies, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	mails := make([]world.Mail, w.Len())
	var seen []emailpattern.Observation
	for i := range mails {
		mails[i] = w.Mail(i)
		for _, p := range mails[i].People {
			if p.Listed {
				seen = append(seen, emailpattern.Observation{Domain: mails[i].Domain, Name: p.Name, Email: p.Local + "@" + mails[i].Domain, Source: fmt.Sprint("contact:", p.PersonaID)})
			}
		}
	}
	learned, _ := emailpattern.LearnAll(seen)
	var ev worldEval
	for _, m := range mails {
		listed := 0
		for _, p := range m.People {
			if p.Listed {
				listed++
			}
		}
		l, ok := learned[m.Domain]
		if listed >= 3 {
			ev.domains3++
			if ok && l.Template == m.Template {
				ev.top1OK++
			}
		}
		if !ok {
			continue
		}
		// Held out: the people whose address no source shows; the world's truth says
		// what it is.
		for _, p := range m.People {
			if !p.Listed {
				ev.pred = append(ev.pred, l.Confidence)
				ev.outcome = append(ev.outcome, emailpattern.Follows(emailpattern.Template(l.Template), p.Name, p.Local+"@"+m.Domain))
			}
		}
	}
	return ev
}

// TestWorldPatterns: on the demo world, the learned pattern is the world's for at least
// 98% of the domains with three or more known addresses, and the confidence is
// calibrated on the people whose address was not seen (ECE <= 0.05).
func TestWorldPatterns(t *testing.T) {
	companies := 600
	if testing.Short() {
		companies = 200
	}
	ev := evalWorld(companies)
	if ev.domains3 < 50 {
		t.Fatalf("only %d domains with three known addresses: the test world is too small", ev.domains3)
	}
	top1 := float64(ev.top1OK) / float64(ev.domains3)
	cal := emailpattern.Calibrate(ev.pred, ev.outcome, 10)
	t.Logf("top-1 %.4f of %d domains; held-out %d people: ECE %.4f, Brier %.4f, accuracy %.4f, mean confidence %.4f",
		top1, ev.domains3, cal.N, cal.ECE, cal.Brier, cal.Accuracy, cal.MeanConfidence)
	if top1 < 0.98 {
		t.Errorf("top-1 = %.4f; want >= 0.98", top1)
	}
	if cal.N < 100 || cal.ECE > 0.05 {
		t.Errorf("held-out calibration over %d people: ECE %.4f; want <= 0.05 over at least 100", cal.N, cal.ECE)
	}
}
