package geo

// englishNames are English exonyms and other everyday names for subdivisions whose ISO
// name is in a local language, so "Bavaria" finds DE-BY as readily as "Bayern". The ISO
// name itself and the variants derived from it (see nameVariants) never need listing.
// The list covers the countries Firmo's users search most; extend it freely: a test
// checks that every code exists and that no name takes over another subdivision's own
// name.
var englishNames = []struct{ code, names string }{
	// Germany
	{"DE-BY", "Bavaria"},
	{"DE-HE", "Hesse"},
	{"DE-MV", "Mecklenburg-Western Pomerania|Mecklenburg-West Pomerania"},
	{"DE-NI", "Lower Saxony"},
	{"DE-NW", "North Rhine-Westphalia|NRW"},
	{"DE-RP", "Rhineland-Palatinate"},
	{"DE-SN", "Saxony"},
	{"DE-ST", "Saxony-Anhalt"},
	{"DE-TH", "Thuringia"},
	// Austria
	{"AT-2", "Carinthia"},
	{"AT-3", "Lower Austria"},
	{"AT-4", "Upper Austria"},
	{"AT-6", "Styria"},
	{"AT-7", "Tyrol"},
	{"AT-9", "Vienna"},
	// Switzerland
	{"CH-BS", "Basel-City"},
	{"CH-BL", "Basel-Country"},
	{"CH-FR", "Fribourg"},
	{"CH-GE", "Geneva|Genf"},
	{"CH-GR", "Grisons"},
	{"CH-LU", "Lucerne"},
	{"CH-SG", "St. Gallen"},
	{"CH-VS", "Wallis"},
	// Italy
	{"IT-21", "Piedmont"},
	{"IT-23", "Aosta Valley|Valle d'Aosta"},
	{"IT-25", "Lombardy"},
	{"IT-32", "Trentino-South Tyrol|Trentino-Alto Adige/Südtirol"},
	{"IT-52", "Tuscany"},
	{"IT-75", "Apulia"},
	{"IT-82", "Sicily"},
	{"IT-88", "Sardinia"},
	{"IT-RM", "Rome"},
	// Spain
	{"ES-AN", "Andalusia"},
	{"ES-CL", "Castile and León"},
	{"ES-CM", "Castile-La Mancha"},
	{"ES-CN", "Canary Islands"},
	{"ES-CT", "Catalonia"},
	{"ES-IB", "Balearic Islands"},
	{"ES-NC", "Navarre|Navarra|Comunidad Foral de Navarra"},
	{"ES-PV", "Basque Country|País Vasco"},
	{"ES-VC", "Valencian Community"},
	// Belgium
	{"BE-BRU", "Brussels|Brussels-Capital Region|Bruxelles-Capitale|Région de Bruxelles-Capitale"},
	{"BE-VAN", "Antwerp"},
	{"BE-VBR", "Flemish Brabant"},
	{"BE-VLG", "Flanders|Flemish Region"},
	{"BE-VOV", "East Flanders"},
	{"BE-VWV", "West Flanders"},
	{"BE-WAL", "Wallonia|Walloon Region"},
	{"BE-WBR", "Walloon Brabant"},
	// France
	{"FR-20R", "Corsica"},
	{"FR-BFC", "Burgundy-Franche-Comté"},
	{"FR-BRE", "Brittany"},
	{"FR-GF", "French Guiana"},
	{"FR-NAQ", "New Aquitaine"},
	{"FR-NC", "New Caledonia"},
	{"FR-NOR", "Normandy"},
	{"FR-OCC", "Occitania"},
	{"FR-PAC", "PACA"},
	{"FR-PF", "French Polynesia"},
	{"FR-RE", "Réunion"},
	// Portugal
	{"PT-11", "Lisbon"},
	{"PT-20", "Azores"},
	{"PT-30", "Madeira"},
	// Mexico
	{"MX-CMX", "Mexico City|CDMX"},
	{"MX-COA", "Coahuila"},
	{"MX-MEX", "State of Mexico|Estado de México"},
	{"MX-MIC", "Michoacán"},
	{"MX-VER", "Veracruz"},
	// China (provinces and municipalities lose "Sheng" and "Shi" by rule; these are the rest)
	{"CN-GX", "Guangxi"},
	{"CN-MO", "Macau"},
	{"CN-NM", "Inner Mongolia"},
	{"CN-NX", "Ningxia"},
	{"CN-XJ", "Xinjiang"},
	{"CN-XZ", "Tibet"},
	// Russia
	{"RU-MOW", "Moscow"},
	{"RU-SPE", "Saint Petersburg|St. Petersburg"},
	// Finland and others translated by iso-codes' own English catalogue
	{"AE-DU", "Dubai"},
	{"FI-10", "Lapland"},
}
