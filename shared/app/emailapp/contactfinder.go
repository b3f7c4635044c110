package emailapp

import (
	"context"

	"github.com/firmoapi/firmo/shared/emailfind"
)

// ContactFinder adapts the email family's finder to contact generation's find_emails
// (contactgen.EmailFinder): one verify-round find per person. Compositions that run
// both families hand it to generationapp.UseFinder.
type ContactFinder struct{ F *emailfind.Finder }

// FindEmail finds first last's address at domain: the finder's status, and the address
// when found.
func (c ContactFinder) FindEmail(ctx context.Context, first, last, domain string) (status, email string) {
	r := c.F.Find(ctx, emailfind.Request{FirstName: first, LastName: last, Domain: domain}, emailfind.RoundVerify)
	if r.Result != nil {
		email = r.Result.Email
	}
	return r.Status, email
}
