"""Places said by name and stored as codes: countries (ISO 3166-1 alpha-2 and alpha-3, and the
common short forms 'UK' and 'USA') and the states of the United States (their two-letter postal
codes), written here from the standard, read at no run-time cost.

"What was the gross revenue from customers in Germany in 2023?" with ``customers.country =
'DE'`` is right, and with ``= 'FR'`` wrong; both were withheld alike as ``code_unasked``, whose
message said the question names no country (outside re-check of tryout 38). ``places_named``
reads the places a question names (a name's words in a row, any case; a few names that are
also common words, such as "Turkey" or "Chad", only capitalised), and ``place_of`` names the
places a stored code stands for. A code may stand for a country and a state at once ('DE' is
Germany and Delaware, 'CA' Canada and California): the stored values of the column compared
tell which is meant, and the checks only ever compare a code with the places the question says.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["place_of", "places_named", "same_place"]

# alpha-2, alpha-3, name[; other name ...]
_COUNTRIES = """
AF AFG afghanistan
AL ALB albania
DZ DZA algeria
AD AND andorra
AO AGO angola
AR ARG argentina
AM ARM armenia
AU AUS australia
AT AUT austria
AZ AZE azerbaijan
BS BHS bahamas
BH BHR bahrain
BD BGD bangladesh
BB BRB barbados
BY BLR belarus
BE BEL belgium
BZ BLZ belize
BJ BEN benin
BT BTN bhutan
BO BOL bolivia
BA BIH bosnia and herzegovina;bosnia
BW BWA botswana
BR BRA brazil
BN BRN brunei
BG BGR bulgaria
BF BFA burkina faso
BI BDI burundi
KH KHM cambodia
CM CMR cameroon
CA CAN canada
CV CPV cape verde;cabo verde
CF CAF central african republic
TD TCD chad
CL CHL chile
CN CHN china;people's republic of china
CO COL colombia
KM COM comoros
CG COG republic of the congo;congo-brazzaville
CD COD democratic republic of the congo;dr congo;drc
CR CRI costa rica
CI CIV ivory coast;cote d'ivoire
HR HRV croatia
CU CUB cuba
CY CYP cyprus
CZ CZE czech republic;czechia
DK DNK denmark
DJ DJI djibouti
DM DMA dominica
DO DOM dominican republic
EC ECU ecuador
EG EGY egypt
SV SLV el salvador
GQ GNQ equatorial guinea
ER ERI eritrea
EE EST estonia
SZ SWZ eswatini;swaziland
ET ETH ethiopia
FJ FJI fiji
FI FIN finland
FR FRA france
GA GAB gabon
GM GMB gambia
GE GEO georgia
DE DEU germany
GH GHA ghana
GR GRC greece
GD GRD grenada
GT GTM guatemala
GN GIN guinea
GW GNB guinea-bissau
GY GUY guyana
HT HTI haiti
HN HND honduras
HK HKG hong kong
HU HUN hungary
IS ISL iceland
IN IND india
ID IDN indonesia
IR IRN iran
IQ IRQ iraq
IE IRL ireland
IL ISR israel
IT ITA italy
JM JAM jamaica
JP JPN japan
JO JOR jordan
KZ KAZ kazakhstan
KE KEN kenya
KI KIR kiribati
KP PRK north korea
KR KOR south korea;korea
KW KWT kuwait
KG KGZ kyrgyzstan
LA LAO laos
LV LVA latvia
LB LBN lebanon
LS LSO lesotho
LR LBR liberia
LY LBY libya
LI LIE liechtenstein
LT LTU lithuania
LU LUX luxembourg
MO MAC macau;macao
MG MDG madagascar
MW MWI malawi
MY MYS malaysia
MV MDV maldives
ML MLI mali
MT MLT malta
MH MHL marshall islands
MR MRT mauritania
MU MUS mauritius
MX MEX mexico
FM FSM micronesia
MD MDA moldova
MC MCO monaco
MN MNG mongolia
ME MNE montenegro
MA MAR morocco
MZ MOZ mozambique
MM MMR myanmar;burma
NA NAM namibia
NR NRU nauru
NP NPL nepal
NL NLD netherlands;holland
NZ NZL new zealand
NI NIC nicaragua
NE NER niger
NG NGA nigeria
MK MKD north macedonia;macedonia
NO NOR norway
OM OMN oman
PK PAK pakistan
PW PLW palau
PS PSE palestine
PA PAN panama
PG PNG papua new guinea
PY PRY paraguay
PE PER peru
PH PHL philippines
PL POL poland
PT PRT portugal
PR PRI puerto rico
QA QAT qatar
RO ROU romania
RU RUS russia;russian federation
RW RWA rwanda
KN KNA saint kitts and nevis
LC LCA saint lucia
VC VCT saint vincent and the grenadines
WS WSM samoa
SM SMR san marino
ST STP sao tome and principe
SA SAU saudi arabia
SN SEN senegal
RS SRB serbia
SC SYC seychelles
SL SLE sierra leone
SG SGP singapore
SK SVK slovakia
SI SVN slovenia
SB SLB solomon islands
SO SOM somalia
ZA ZAF south africa
SS SSD south sudan
ES ESP spain
LK LKA sri lanka
SD SDN sudan
SR SUR suriname
SE SWE sweden
CH CHE switzerland
SY SYR syria
TW TWN taiwan
TJ TJK tajikistan
TZ TZA tanzania
TH THA thailand
TL TLS timor-leste;east timor
TG TGO togo
TO TON tonga
TT TTO trinidad and tobago
TN TUN tunisia
TR TUR turkey;turkiye
TM TKM turkmenistan
TV TUV tuvalu
UG UGA uganda
UA UKR ukraine
AE ARE united arab emirates;uae
GB GBR united kingdom;great britain;britain;uk;u.k.
US USA united states;united states of america;usa;u.s.;u.s.a.
UY URY uruguay
UZ UZB uzbekistan
VU VUT vanuatu
VA VAT vatican;holy see
VE VEN venezuela
VN VNM vietnam;viet nam
YE YEM yemen
ZM ZMB zambia
ZW ZWE zimbabwe
"""

# Short forms stored in place of the standard's codes.
_SHORT = {"GB": ("UK",), "US": ("USA", "U.S.", "U.S.A.")}

_STATES = """
AL alabama
AK alaska
AZ arizona
AR arkansas
CA california
CO colorado
CT connecticut
DE delaware
FL florida
GA georgia
HI hawaii
ID idaho
IL illinois
IN indiana
IA iowa
KS kansas
KY kentucky
LA louisiana
ME maine
MD maryland
MA massachusetts
MI michigan
MN minnesota
MS mississippi
MO missouri
MT montana
NE nebraska
NV nevada
NH new hampshire
NJ new jersey
NM new mexico
NY new york
NC north carolina
ND north dakota
OH ohio
OK oklahoma
OR oregon
PA pennsylvania
RI rhode island
SC south carolina
SD south dakota
TN tennessee
TX texas
UT utah
VT vermont
VA virginia
WA washington
WV west virginia
WI wisconsin
WY wyoming
DC district of columbia;washington dc;washington d.c.
"""

# Names that are also common words or given names: a place only when capitalised.
_CAPITALISED = frozenset("turkey chad jordan china jersey guinea georgia".split())


@cache
def _places() -> tuple[tuple[str, tuple[str, ...], frozenset[str]], ...]:
    """(kind, names, codes) of each place, as the tables above list them."""
    rows: list[tuple[str, tuple[str, ...], frozenset[str]]] = []
    for line in _COUNTRIES.strip().splitlines():
        two, three, names = line.split(" ", 2)
        codes = frozenset({two, three, *_SHORT.get(two, ())})
        rows.append(("country", tuple(n.strip() for n in names.split(";")), codes))
    for line in _STATES.strip().splitlines():
        code, names = line.split(" ", 1)
        rows.append(("state", tuple(n.strip() for n in names.split(";")), frozenset({code})))
    return tuple(rows)


@cache
def _table() -> tuple[tuple[str, str, frozenset[str], str], ...]:
    """(kind, name, codes, first name) for each name of each place, the longest names first."""
    rows = [(kind, name, codes, names[0]) for kind, names, codes in _places() for name in names]
    return tuple(sorted(rows, key=lambda r: (-len(r[1]), r[0], r[1])))


def places_named(question: str) -> list[tuple[str, str, frozenset[str]]]:
    """(kind, first name, codes) of each place the question names ("the UK": United
    Kingdom), a longer name first and its words not read again ("New Mexico" is not Mexico,
    "South Sudan" not Sudan)."""
    text = question
    found: list[tuple[str, str, frozenset[str]]] = []
    for kind, name, codes, first in _table():
        pattern = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
        for match in pattern.finditer(text):
            said = match.group(0)
            if name in _CAPITALISED and not said[:1].isupper():
                continue
            found.append((kind, first, codes))
            text = text[: match.start()] + " " * len(said) + text[match.end() :]
    return sorted(set(found), key=lambda r: (r[1], r[0]))


def place_of(code: str) -> list[str]:
    """The first names of the places a stored code stands for ('DE': Delaware and Germany),
    capitalised."""
    wanted = code.strip().upper()
    return sorted(names[0].title() for _, names, codes in _places() if wanted in codes)


def same_place(code: str, text: str) -> bool:
    """Whether a code the question says ('UK') and a string the SQL compares ('GBR', 'GB',
    'United Kingdom') stand for one place.

    Example:
        >>> same_place("UK", "GBR"), same_place("DE", "Germany"), same_place("DE", "FR")
        (True, True, False)
    """
    wanted, said = code.strip().upper(), text.strip().lower()
    return any(
        wanted in codes and (said.upper() in codes or said in names)
        for _, names, codes in _places()
    )
