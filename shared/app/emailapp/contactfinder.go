package emailapp

import (
	"context"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/emailfind"
)

// ContactFinder adapts the email family's finder to contact generation's find_emails
// (contactgen.EmailFinder): one verify-round find per person. Compositions that run
// both families hand ContactFinderOn to generationapp.FindEmailsWith.
type ContactFinder struct{ F *emailfind.Finder }

// ContactFinderOn is the core's email finder as contact generation's: the email
// family's service, built once per core.
func ContactFinderOn(ctx context.Context, c *app.Core) (ContactFinder, error) {
	s, err := Service(ctx, c)
	if err != nil {
		return ContactFinder{}, err
	}
	return ContactFinder{F: s.Finder()}, nil
}

// FindEmail finds first last's address at domain: the finder's status, and the address
// when found.
func (c ContactFinder) FindEmail(ctx context.Context, first, last, domain string) (status, email string) {
	r := c.F.Find(ctx, emailfind.Request{FirstName: first, LastName: last, Domain: domain}, emailfind.RoundVerify)
	if r.Result != nil {
		email = r.Result.Email
	}
	return r.Status, email
}
