package gazetteer

// places is the embedded table: the main business cities of the countries of the demo
// world, written by hand from public coordinates (city centre, four decimals, WGS 84).
// Alt lists other spellings a postal address uses: English exonyms, local names, forms
// without diacritics. State is the ISO 3166-2 code of the first-level subdivision; Zip is
// one postal code of the centre, which the demo world varies.
var places = []Place{
	// United States
	{Country: "US", Name: "New York", Alt: []string{"New York City", "NYC", "Manhattan"}, State: "US-NY", Lat: 40.7128, Lon: -74.0060, Zip: "10001"},
	{Country: "US", Name: "San Francisco", Alt: []string{"SF"}, State: "US-CA", Lat: 37.7749, Lon: -122.4194, Zip: "94103"},
	{Country: "US", Name: "Los Angeles", Alt: []string{"LA"}, State: "US-CA", Lat: 34.0522, Lon: -118.2437, Zip: "90012"},
	{Country: "US", Name: "Austin", State: "US-TX", Lat: 30.2672, Lon: -97.7431, Zip: "78701"},
	{Country: "US", Name: "Chicago", State: "US-IL", Lat: 41.8781, Lon: -87.6298, Zip: "60601"},
	{Country: "US", Name: "Seattle", State: "US-WA", Lat: 47.6062, Lon: -122.3321, Zip: "98101"},
	{Country: "US", Name: "Boston", State: "US-MA", Lat: 42.3601, Lon: -71.0589, Zip: "02108"},
	{Country: "US", Name: "Atlanta", State: "US-GA", Lat: 33.7490, Lon: -84.3880, Zip: "30303"},
	{Country: "US", Name: "Denver", State: "US-CO", Lat: 39.7392, Lon: -104.9903, Zip: "80202"},
	{Country: "US", Name: "Miami", State: "US-FL", Lat: 25.7617, Lon: -80.1918, Zip: "33130"},
	{Country: "US", Name: "Portland", State: "US-OR", Lat: 45.5152, Lon: -122.6784, Zip: "97204"},
	// United Kingdom
	{Country: "GB", Name: "London", State: "GB-ENG", Lat: 51.5074, Lon: -0.1278, Zip: "EC1A 1BB"},
	{Country: "GB", Name: "Manchester", State: "GB-ENG", Lat: 53.4808, Lon: -2.2426, Zip: "M1 1AE"},
	{Country: "GB", Name: "Birmingham", State: "GB-ENG", Lat: 52.4862, Lon: -1.8904, Zip: "B1 1AA"},
	{Country: "GB", Name: "Leeds", State: "GB-ENG", Lat: 53.8008, Lon: -1.5491, Zip: "LS1 1UR"},
	{Country: "GB", Name: "Bristol", State: "GB-ENG", Lat: 51.4545, Lon: -2.5879, Zip: "BS1 4DJ"},
	{Country: "GB", Name: "Edinburgh", State: "GB-SCT", Lat: 55.9533, Lon: -3.1883, Zip: "EH1 1YZ"},
	{Country: "GB", Name: "Glasgow", State: "GB-SCT", Lat: 55.8642, Lon: -4.2518, Zip: "G1 1XQ"},
	// Ireland
	{Country: "IE", Name: "Dublin", Alt: []string{"Baile Átha Cliath"}, State: "IE-L", Lat: 53.3498, Lon: -6.2603, Zip: "D02 X285"},
	{Country: "IE", Name: "Cork", Alt: []string{"Corcaigh"}, State: "IE-M", Lat: 51.8985, Lon: -8.4756, Zip: "T12 W8CX"},
	{Country: "IE", Name: "Galway", Alt: []string{"Gaillimh"}, State: "IE-C", Lat: 53.2707, Lon: -9.0568, Zip: "H91 E2K8"},
	// Canada
	{Country: "CA", Name: "Toronto", State: "CA-ON", Lat: 43.6532, Lon: -79.3832, Zip: "M5H 2N2"},
	{Country: "CA", Name: "Montreal", Alt: []string{"Montréal"}, State: "CA-QC", Lat: 45.5017, Lon: -73.5673, Zip: "H2Y 1C6"},
	{Country: "CA", Name: "Vancouver", State: "CA-BC", Lat: 49.2827, Lon: -123.1207, Zip: "V6B 1A1"},
	{Country: "CA", Name: "Calgary", State: "CA-AB", Lat: 51.0447, Lon: -114.0719, Zip: "T2P 1J9"},
	{Country: "CA", Name: "Ottawa", State: "CA-ON", Lat: 45.4215, Lon: -75.6972, Zip: "K1P 1J1"},
	// Australia
	{Country: "AU", Name: "Sydney", State: "AU-NSW", Lat: -33.8688, Lon: 151.2093, Zip: "2000"},
	{Country: "AU", Name: "Melbourne", State: "AU-VIC", Lat: -37.8136, Lon: 144.9631, Zip: "3000"},
	{Country: "AU", Name: "Brisbane", State: "AU-QLD", Lat: -27.4698, Lon: 153.0251, Zip: "4000"},
	{Country: "AU", Name: "Perth", State: "AU-WA", Lat: -31.9505, Lon: 115.8605, Zip: "6000"},
	// Germany
	{Country: "DE", Name: "Berlin", State: "DE-BE", Lat: 52.5200, Lon: 13.4050, Zip: "10115"},
	{Country: "DE", Name: "München", Alt: []string{"Munich", "Muenchen"}, State: "DE-BY", Lat: 48.1351, Lon: 11.5820, Zip: "80331"},
	{Country: "DE", Name: "Hamburg", State: "DE-HH", Lat: 53.5511, Lon: 9.9937, Zip: "20095"},
	{Country: "DE", Name: "Frankfurt am Main", Alt: []string{"Frankfurt"}, State: "DE-HE", Lat: 50.1109, Lon: 8.6821, Zip: "60311"},
	{Country: "DE", Name: "Köln", Alt: []string{"Cologne", "Koeln"}, State: "DE-NW", Lat: 50.9375, Lon: 6.9603, Zip: "50667"},
	{Country: "DE", Name: "Düsseldorf", Alt: []string{"Duesseldorf"}, State: "DE-NW", Lat: 51.2277, Lon: 6.7735, Zip: "40213"},
	{Country: "DE", Name: "Stuttgart", State: "DE-BW", Lat: 48.7758, Lon: 9.1829, Zip: "70173"},
	{Country: "DE", Name: "Leipzig", State: "DE-SN", Lat: 51.3397, Lon: 12.3731, Zip: "04109"},
	{Country: "DE", Name: "Nürnberg", Alt: []string{"Nuremberg", "Nuernberg"}, State: "DE-BY", Lat: 49.4521, Lon: 11.0767, Zip: "90402"},
	// Austria
	{Country: "AT", Name: "Wien", Alt: []string{"Vienna"}, State: "AT-9", Lat: 48.2082, Lon: 16.3738, Zip: "1010"},
	{Country: "AT", Name: "Graz", State: "AT-6", Lat: 47.0707, Lon: 15.4395, Zip: "8010"},
	{Country: "AT", Name: "Salzburg", State: "AT-5", Lat: 47.8095, Lon: 13.0550, Zip: "5020"},
	{Country: "AT", Name: "Linz", State: "AT-4", Lat: 48.3069, Lon: 14.2858, Zip: "4020"},
	// Switzerland
	{Country: "CH", Name: "Zürich", Alt: []string{"Zurich", "Zuerich"}, State: "CH-ZH", Lat: 47.3769, Lon: 8.5417, Zip: "8001"},
	{Country: "CH", Name: "Genève", Alt: []string{"Geneva", "Geneve", "Genf"}, State: "CH-GE", Lat: 46.2044, Lon: 6.1432, Zip: "1201"},
	{Country: "CH", Name: "Basel", Alt: []string{"Bâle"}, State: "CH-BS", Lat: 47.5596, Lon: 7.5886, Zip: "4051"},
	{Country: "CH", Name: "Bern", Alt: []string{"Berne"}, State: "CH-BE", Lat: 46.9480, Lon: 7.4474, Zip: "3011"},
	// France
	{Country: "FR", Name: "Paris", State: "FR-IDF", Lat: 48.8566, Lon: 2.3522, Zip: "75002"},
	{Country: "FR", Name: "Lyon", State: "FR-ARA", Lat: 45.7640, Lon: 4.8357, Zip: "69002"},
	{Country: "FR", Name: "Marseille", Alt: []string{"Marseilles"}, State: "FR-PAC", Lat: 43.2965, Lon: 5.3698, Zip: "13001"},
	{Country: "FR", Name: "Toulouse", State: "FR-OCC", Lat: 43.6047, Lon: 1.4442, Zip: "31000"},
	{Country: "FR", Name: "Bordeaux", State: "FR-NAQ", Lat: 44.8378, Lon: -0.5792, Zip: "33000"},
	{Country: "FR", Name: "Lille", State: "FR-HDF", Lat: 50.6292, Lon: 3.0573, Zip: "59000"},
	{Country: "FR", Name: "Nantes", State: "FR-PDL", Lat: 47.2184, Lon: -1.5536, Zip: "44000"},
	// Belgium
	{Country: "BE", Name: "Bruxelles", Alt: []string{"Brussels", "Brussel"}, State: "BE-BRU", Lat: 50.8503, Lon: 4.3517, Zip: "1000"},
	{Country: "BE", Name: "Antwerpen", Alt: []string{"Antwerp", "Anvers"}, State: "BE-VLG", Lat: 51.2194, Lon: 4.4025, Zip: "2000"},
	{Country: "BE", Name: "Gent", Alt: []string{"Ghent", "Gand"}, State: "BE-VLG", Lat: 51.0543, Lon: 3.7174, Zip: "9000"},
	{Country: "BE", Name: "Liège", Alt: []string{"Liege", "Luik"}, State: "BE-WAL", Lat: 50.6326, Lon: 5.5797, Zip: "4000"},
	// Spain
	{Country: "ES", Name: "Madrid", State: "ES-MD", Lat: 40.4168, Lon: -3.7038, Zip: "28013"},
	{Country: "ES", Name: "Barcelona", State: "ES-CT", Lat: 41.3874, Lon: 2.1686, Zip: "08002"},
	{Country: "ES", Name: "Valencia", Alt: []string{"València"}, State: "ES-VC", Lat: 39.4699, Lon: -0.3763, Zip: "46002"},
	{Country: "ES", Name: "Sevilla", Alt: []string{"Seville"}, State: "ES-AN", Lat: 37.3891, Lon: -5.9845, Zip: "41001"},
	{Country: "ES", Name: "Bilbao", Alt: []string{"Bilbo"}, State: "ES-PV", Lat: 43.2630, Lon: -2.9350, Zip: "48001"},
	{Country: "ES", Name: "Málaga", Alt: []string{"Malaga"}, State: "ES-AN", Lat: 36.7213, Lon: -4.4214, Zip: "29005"},
	// Mexico
	{Country: "MX", Name: "Ciudad de México", Alt: []string{"Mexico City", "CDMX", "Ciudad de Mexico"}, State: "MX-CMX", Lat: 19.4326, Lon: -99.1332, Zip: "06000"},
	{Country: "MX", Name: "Guadalajara", State: "MX-JAL", Lat: 20.6597, Lon: -103.3496, Zip: "44100"},
	{Country: "MX", Name: "Monterrey", State: "MX-NLE", Lat: 25.6866, Lon: -100.3161, Zip: "64000"},
	{Country: "MX", Name: "Puebla", State: "MX-PUE", Lat: 19.0414, Lon: -98.2063, Zip: "72000"},
	// Portugal
	{Country: "PT", Name: "Lisboa", Alt: []string{"Lisbon"}, State: "PT-11", Lat: 38.7223, Lon: -9.1393, Zip: "1100-148"},
	{Country: "PT", Name: "Porto", Alt: []string{"Oporto"}, State: "PT-13", Lat: 41.1579, Lon: -8.6291, Zip: "4000-322"},
	{Country: "PT", Name: "Faro", State: "PT-08", Lat: 37.0194, Lon: -7.9322, Zip: "8000-138"},
	{Country: "PT", Name: "Braga", State: "PT-03", Lat: 41.5454, Lon: -8.4265, Zip: "4700-435"},
	// Brazil
	{Country: "BR", Name: "São Paulo", Alt: []string{"Sao Paulo"}, State: "BR-SP", Lat: -23.5505, Lon: -46.6333, Zip: "01001-000"},
	{Country: "BR", Name: "Rio de Janeiro", State: "BR-RJ", Lat: -22.9068, Lon: -43.1729, Zip: "20010-000"},
	{Country: "BR", Name: "Belo Horizonte", State: "BR-MG", Lat: -19.9167, Lon: -43.9345, Zip: "30130-000"},
	{Country: "BR", Name: "Porto Alegre", State: "BR-RS", Lat: -30.0346, Lon: -51.2177, Zip: "90010-000"},
	{Country: "BR", Name: "Curitiba", State: "BR-PR", Lat: -25.4284, Lon: -49.2733, Zip: "80010-000"},
	// Italy
	{Country: "IT", Name: "Roma", Alt: []string{"Rome"}, State: "IT-62", Lat: 41.9028, Lon: 12.4964, Zip: "00186"},
	{Country: "IT", Name: "Milano", Alt: []string{"Milan"}, State: "IT-25", Lat: 45.4642, Lon: 9.1900, Zip: "20121"},
	{Country: "IT", Name: "Torino", Alt: []string{"Turin"}, State: "IT-21", Lat: 45.0703, Lon: 7.6869, Zip: "10121"},
	{Country: "IT", Name: "Napoli", Alt: []string{"Naples"}, State: "IT-72", Lat: 40.8518, Lon: 14.2681, Zip: "80133"},
	{Country: "IT", Name: "Firenze", Alt: []string{"Florence"}, State: "IT-52", Lat: 43.7696, Lon: 11.2558, Zip: "50122"},
	{Country: "IT", Name: "Bologna", State: "IT-45", Lat: 44.4949, Lon: 11.3426, Zip: "40121"},
	// Netherlands
	{Country: "NL", Name: "Amsterdam", State: "NL-NH", Lat: 52.3676, Lon: 4.9041, Zip: "1012 JS"},
	{Country: "NL", Name: "Rotterdam", State: "NL-ZH", Lat: 51.9244, Lon: 4.4777, Zip: "3011 AD"},
	{Country: "NL", Name: "Den Haag", Alt: []string{"The Hague", "'s-Gravenhage"}, State: "NL-ZH", Lat: 52.0705, Lon: 4.3007, Zip: "2511 BT"},
	{Country: "NL", Name: "Utrecht", State: "NL-UT", Lat: 52.0907, Lon: 5.1214, Zip: "3511 LX"},
	{Country: "NL", Name: "Eindhoven", State: "NL-NB", Lat: 51.4416, Lon: 5.4697, Zip: "5611 EM"},
	{Country: "NL", Name: "Groningen", State: "NL-GR", Lat: 53.2194, Lon: 6.5665, Zip: "9711 LM"},
}
