package httpapi

import (
	"net/http"
	"strconv"
)

// HeaderCreditsCharged carries the credits a request was charged. Every authenticated
// response has it (0 unless the handler charged); handlers that charge set it with
// SetCreditsCharged before writing the body.
const HeaderCreditsCharged = "X-Credits-Charged"

// SetCreditsCharged records the credits charged for the response being written.
func SetCreditsCharged(w http.ResponseWriter, credits int64) {
	w.Header().Set(HeaderCreditsCharged, strconv.FormatInt(credits, 10))
}
