// Package score computes the company score of GET /score from a company's certificate
// history: a number from 0 to 800, higher meaning a longer, steadier and current web
// presence.
//
// # Formula
//
// For a scoring date D and the certificates issued on or before D (later ones are ignored,
// so scoring a past date gives the score the company had then):
//
//	score = ceil( min( max( (base × recency + growth) × expiration, 0 ), 800 ) )
//
// Days are exact elapsed time divided by 24 hours (fractional), a year is 365 days, and a
// certificate's issue date is its date_from (X.509 notBefore).
//
// Base. Year x, for x = 1..10, is the x-th 365-day window counting back from D: a
// certificate is in year x when x−1 ≤ (D − date_from)/365 days < x. Year 1 is the most
// recent year, year 10 the oldest. With n_x certificates issued in year x,
//
//	base = Σ_{x=1..10} min(n_x / C, 1) × P × M × w(x)
//	w(x) = 0.4 + 0.5·exp(−(x−6)²/8) + 0.05·(x−1)
//
// where C is the baseline certificate count per year, P the baseline points per year and
// M the market coefficient. Counting x back from D is a reading of the API reference, chosen
// because of what the weights then mean: w rises from 0.42 for the latest year to a peak
// of 1.15 for year 6 and stays near 1 for years 7 to 10, so the base rewards a history
// that has lasted, while being current is measured by the recency, growth and expiration
// terms. Counting x forward from the oldest year would weight the latest year at 0.92 and
// count recent activity twice.
//
// Recency. Among the certificates issued less than 3 × 365 days before D whose validity
// (date_to − date_from) is at most 3 × 365 days, take the earliest issued one:
//
//	recency = min( (D − its date_from) in days / 365, 1 )
//
// and 0 when there is none. A company that has issued certificates for at least a year
// gets 1; a company that started 73 days ago gets 0.2. Certificates valid over three years
// are ignored here only; they count in every other term.
//
// Growth. lookback_360 counts certificates issued less than 360 days before D;
// lookback_720 those issued at least 360 and less than 720 days before D.
//
//	growth = 0                                                       when lookback_720 = 0
//	growth = max( (l360 − l720) / (l360 + l720) × 50, −base / 2 )   otherwise
//
// so growth lies between −50 and +50 and never removes more than half of the base.
//
// Expiration. Among the certificates valid on D (date_from ≤ D < date_to), take the one
// that expires last:
//
//	expiration = min( (its date_to − D) in days / 14, 1 )
//
// and 0 when no certificate is valid on D, which makes the whole score 0. The score falls
// linearly over the last 14 days before the last certificate expires.
//
// # Constants
//
// The API reference leaves the three constants to Firmo; DefaultConstants returns
//
//	C = 4 certificates per year   (baseline certificate count)
//	P = 100 points per year       (baseline points)
//	M = 0.85                      (market coefficient)
//
// C = 4 is one host renewed every quarter, the cadence of 90-day certificates, or four
// hosts renewed yearly: the activity of a small company that runs its site properly.
// A year with fewer certificates earns a share (3 certificates: 75 %). P = 100 gives
// every full year a round value before weighting. The weights w(1..10) sum to 8.721, so
// a full ten-year history has a base of P × M × 8.721; M = 0.85 sets that to 741.3, so
// a company with steady issuance over ten years (growth ≈ 0) scores about 742, and the
// 800 cap is reached only with stronger growth than the formula allows (+50 at most),
// leaving the cap as a guard for other constants. Cumulative bases with every year full:
// 1 year 35.9, 3 years 136.2, 5 years 297.2, 8 years 581.5, 10 years 741.3.
//
// # Recomputing a score
//
// Every result carries its parameters (base_score, recency_multiplier, growth_boost,
// expiration_penalty, lookback_360, lookback_720), the certificates counted per year
// (year_counts, year 1 first) and the constants, so the score can be checked by hand
// from the formula above.
package score
