"""Country and US state names for columns that hold only their codes.

A column whose values are all ISO 3166-1 alpha-2 codes ("MX", "DE") is read with the countries'
common English names ("except mexico", "Germany", "the UK"); one whose values are all USPS state
codes with the states' names. A column whose codes are both (only "CA" and "DE": California and
Delaware, or Canada and Germany?) gets neither: which is meant is never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["ADJECTIVES", "COUNTRIES", "STATES", "hinted", "place_names"]

# code: names (';' between names), ISO 3166-1 alpha-2, common English names and short forms.
_COUNTRIES = """
AD Andorra|AE United Arab Emirates;UAE;Emirates|AF Afghanistan|AG Antigua and Barbuda|
AI Anguilla|AL Albania|AM Armenia|AO Angola|AQ Antarctica|AR Argentina|AS American Samoa|
AT Austria|AU Australia|AW Aruba|AX Aland Islands|AZ Azerbaijan|BA Bosnia and Herzegovina;Bosnia|
BB Barbados|BD Bangladesh|BE Belgium|BF Burkina Faso|BG Bulgaria|BH Bahrain|BI Burundi|BJ Benin|
BL Saint Barthelemy|BM Bermuda|BN Brunei|BO Bolivia|BQ Caribbean Netherlands|BR Brazil|
BS Bahamas;the Bahamas|BT Bhutan|BV Bouvet Island|BW Botswana|BY Belarus|BZ Belize|CA Canada|
CC Cocos Islands|CD Democratic Republic of the Congo;DR Congo;DRC|CF Central African Republic|
CG Republic of the Congo;Congo|CH Switzerland|CI Ivory Coast;Cote d'Ivoire|CK Cook Islands|
CL Chile|CM Cameroon|CN China|CO Colombia|CR Costa Rica|CU Cuba|CV Cape Verde;Cabo Verde|
CW Curacao|CX Christmas Island|CY Cyprus|CZ Czechia;Czech Republic|DE Germany|DJ Djibouti|
DK Denmark|DM Dominica|DO Dominican Republic|DZ Algeria|EC Ecuador|EE Estonia|EG Egypt|
EH Western Sahara|ER Eritrea|ES Spain|ET Ethiopia|FI Finland|FJ Fiji|FK Falkland Islands|
FM Micronesia|FO Faroe Islands|FR France|GA Gabon|
GB United Kingdom;UK;Britain;Great Britain;the United Kingdom;the UK|GD Grenada|GE Georgia|
GF French Guiana|GG Guernsey|GH Ghana|GI Gibraltar|GL Greenland|GM Gambia;the Gambia|GN Guinea|
GP Guadeloupe|GQ Equatorial Guinea|GR Greece|GS South Georgia|GT Guatemala|GU Guam|
GW Guinea-Bissau|GY Guyana|HK Hong Kong|HM Heard Island|HN Honduras|HR Croatia|HT Haiti|
HU Hungary|ID Indonesia|IE Ireland|IL Israel|IM Isle of Man|IN India|
IO British Indian Ocean Territory|IQ Iraq|IR Iran|IS Iceland|IT Italy|JE Jersey|JM Jamaica|
JO Jordan|JP Japan|KE Kenya|KG Kyrgyzstan|KH Cambodia|KI Kiribati|KM Comoros|
KN Saint Kitts and Nevis|KP North Korea|KR South Korea;Korea|KW Kuwait|KY Cayman Islands|
KZ Kazakhstan|LA Laos|LB Lebanon|LC Saint Lucia|LI Liechtenstein|LK Sri Lanka|LR Liberia|
LS Lesotho|LT Lithuania|LU Luxembourg|LV Latvia|LY Libya|MA Morocco|MC Monaco|MD Moldova|
ME Montenegro|MF Saint Martin|MG Madagascar|MH Marshall Islands|MK North Macedonia;Macedonia|
ML Mali|MM Myanmar;Burma|MN Mongolia|MO Macau;Macao|MP Northern Mariana Islands|MQ Martinique|
MR Mauritania|MS Montserrat|MT Malta|MU Mauritius|MV Maldives|MW Malawi|MX Mexico|MY Malaysia|
MZ Mozambique|NA Namibia|NC New Caledonia|NE Niger|NF Norfolk Island|NG Nigeria|NI Nicaragua|
NL Netherlands;the Netherlands;Holland|NO Norway|NP Nepal|NR Nauru|NU Niue|NZ New Zealand|
OM Oman|PA Panama|PE Peru|PF French Polynesia|PG Papua New Guinea|PH Philippines;the Philippines|
PK Pakistan|PL Poland|PM Saint Pierre and Miquelon|PN Pitcairn Islands|PR Puerto Rico|
PS Palestine|PT Portugal|PW Palau|PY Paraguay|QA Qatar|RE Reunion|RO Romania|RS Serbia|
RU Russia;Russian Federation|RW Rwanda|SA Saudi Arabia|SB Solomon Islands|SC Seychelles|
SD Sudan|SE Sweden|SG Singapore|SH Saint Helena|SI Slovenia|SJ Svalbard and Jan Mayen|
SK Slovakia|SL Sierra Leone|SM San Marino|SN Senegal|SO Somalia|SR Suriname|SS South Sudan|
ST Sao Tome and Principe|SV El Salvador|SX Sint Maarten|SY Syria|SZ Eswatini;Swaziland|
TC Turks and Caicos Islands|TD Chad|TF French Southern Territories|TG Togo|TH Thailand|
TJ Tajikistan|TK Tokelau|TL Timor-Leste;East Timor|TM Turkmenistan|TN Tunisia|TO Tonga|
TR Turkey;Turkiye|TT Trinidad and Tobago|TV Tuvalu|TW Taiwan|TZ Tanzania|UA Ukraine|UG Uganda|
UM United States Minor Outlying Islands|
US United States;United States of America;USA;the States;America;the USA;the United States|
UY Uruguay|UZ Uzbekistan|VA Vatican City;Holy See|VC Saint Vincent and the Grenadines|
VE Venezuela|VG British Virgin Islands|VI US Virgin Islands|VN Vietnam;Viet Nam|VU Vanuatu|
WF Wallis and Futuna|WS Samoa|YE Yemen|YT Mayotte|ZA South Africa|ZM Zambia|ZW Zimbabwe
"""

_STATES = """
AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|
DE Delaware|DC District of Columbia;Washington DC|FL Florida|GA Georgia|HI Hawaii|ID Idaho|
IL Illinois|IN Indiana|IA Iowa|KS Kansas|KY Kentucky|LA Louisiana|ME Maine|MD Maryland|
MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|MO Missouri|MT Montana|NE Nebraska|
NV Nevada|NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York;New York State|
NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|PA Pennsylvania|
RI Rhode Island|SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|
VA Virginia|WA Washington State|WV West Virginia|WI Wisconsin|WY Wyoming|PR Puerto Rico
"""


# The adjective of a country and its people ("french": FR), for a did-you-mean only: what such a
# word means of a row (born there? singing in its language? a citizen?) is never assumed, so
# the value is offered back, never applied. "English" is left out (a language, or England?).
_ADJECTIVES = """
AR argentine;argentinian|AT austrian|AU australian|BE belgian|BR brazilian|CA canadian|
CH swiss|CL chilean|CN chinese|CO colombian|CZ czech|DE german|DK danish|EG egyptian|ES spanish|
FI finnish|FR french|GB british|GR greek|HU hungarian|ID indonesian|IE irish|IL israeli|
IN indian|IR iranian|IT italian|JP japanese|KR korean|MA moroccan|MX mexican|NG nigerian|
NL dutch|NO norwegian|PE peruvian|PH filipino|PK pakistani|PL polish|
PT portuguese|RO romanian|RU russian|SA saudi|SE swedish|TH thai|TR turkish|UA ukrainian|
US american|VN vietnamese
"""


def _table(text: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for entry in " ".join(text.split("\n")).split("|"):
        code, _, names = entry.strip().partition(" ")
        out[code] = tuple(n.strip() for n in names.split(";"))
    return out


COUNTRIES = _table(_COUNTRIES)
STATES = _table(_STATES)
# "french" -> FR: each adjective of one country only
ADJECTIVES = {w: code for code, words in _table(_ADJECTIVES).items() for w in words}


def hinted(hint: str) -> dict[str, tuple[str, ...]] | None:
    """The table a column's name says it holds: states for "s_state", countries for
    "customer_country" or "nation"; None when it says neither or both."""
    words = set(re.split(r"[^a-z]+", re.sub(r"([a-z])([A-Z])", r"\1_\2", hint).lower()))
    says_state = bool(words & {"state", "states", "province"})
    says_country = bool(words & {"country", "countries", "nation", "nations"})
    if says_state == says_country:
        return None
    return STATES if says_state else COUNTRIES


def place_names(values: Iterable[str], hint: str = "") -> list[tuple[str, str]]:
    """(name, value) for each value of a column that holds only places of one kind, read
    with the places' other names; none when it holds anything else, or places of both kinds
    its name does not tell apart.

    A column of codes ("MX", "US") is read with the names ("Mexico"); a column of names or
    short forms ("usa", "uk", "United States") with the other names and the codes ("United
    States", "United Kingdom", "USA"). Where two values of the column are one place (``usa``
    and ``United States``), its other names ("America") name both: the reader asks back.
    Codes that are both a country's and a state's ("TN": Tunisia or Tennessee) are read as the
    kind the column's name says (``hint``: "s_state" holds states), else as neither.

    Example:
        >>> ("Mexico", "MX") in place_names(["MX", "US"])
        True
        >>> place_names(["CA", "DE"])  # Canada and Germany, or California and Delaware?
        []
        >>> place_names(["TN"], hint="store.s_state")
        [('Tennessee', 'TN')]
        >>> ("United Kingdom", "uk") in place_names(["uk", "usa", "france"])
        True
        >>> sorted(v for n, v in place_names(["usa", "United States", "uk"]) if n == "America")
        ['United States', 'usa']
    """
    stored = list(dict.fromkeys(values))
    if not stored:
        return []
    codes = set(stored)
    countries, states = codes <= COUNTRIES.keys(), codes <= STATES.keys()
    if countries and states:
        kind = hinted(hint)
        countries, states = kind is COUNTRIES, kind is STATES
    if countries != states:
        table = COUNTRIES if countries else STATES
        return [(name, code) for code in sorted(codes) for name in table[code]]
    return _named(stored, hint)


def _named(stored: list[str], hint: str) -> list[tuple[str, str]]:
    """(other name, value) for a column whose every value is a name or code of a place of
    one kind (case aside), each place held by exactly one value."""
    folded: dict[str, list[str]] = {}
    for value in stored:
        folded.setdefault(value.casefold(), []).append(value)
    out: list[tuple[str, str]] = []
    for table in (COUNTRIES, STATES):
        if hinted(hint) not in (None, table):
            continue
        held: dict[str, list[str]] = {}  # code: the values naming that place
        for code, names in table.items():
            for form in {code.casefold(), *(n.casefold() for n in names)}:
                for value in folded.get(form, []):
                    if value not in held.setdefault(code, []):
                        held[code].append(value)
        if {v for found in held.values() for v in found} != set(stored):
            continue  # a value that is no place: no names
        if out:
            return []  # every value a country and a state alike: which is never guessed
        for code in sorted(held):
            # one place held by two values ("usa", "United States"): its other names name
            # both, and the reader asks back which
            for value in held[code]:
                for form in (code, *table[code]):
                    if form.casefold() not in {v.casefold() for v in held[code]}:
                        out.append((form, value))
    return out
