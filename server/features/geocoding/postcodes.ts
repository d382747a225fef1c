/**
 * UK postcodes for the offline gazetteer (docs/decisions/0082), placed at their area's post town, as no
 * registry package ships postcode centroids. London's compass areas are placed at a district near their middle.
 */

/** Postcode area → the GeoNames place (a GB place name, the most populous of that name) it is placed at. */
export const POSTCODE_AREA_PLACES: Readonly<Record<string, string>> = {
  AB: 'Aberdeen',
  AL: 'St Albans',
  B: 'Birmingham',
  BA: 'Bath',
  BB: 'Blackburn',
  BD: 'Bradford',
  BH: 'Bournemouth',
  BL: 'Bolton',
  BN: 'Brighton',
  BR: 'Bromley',
  BS: 'Bristol',
  BT: 'Belfast',
  CA: 'Carlisle',
  CB: 'Cambridge',
  CF: 'Cardiff',
  CH: 'Chester',
  CM: 'Chelmsford',
  CO: 'Colchester',
  CR: 'Croydon',
  CT: 'Canterbury',
  CV: 'Coventry',
  CW: 'Crewe',
  DA: 'Dartford',
  DD: 'Dundee',
  DE: 'Derby',
  DG: 'Dumfries',
  DH: 'Durham',
  DL: 'Darlington',
  DN: 'Doncaster',
  DT: 'Dorchester',
  DY: 'Dudley',
  E: 'Bethnal Green',
  EC: 'City of London',
  EH: 'Edinburgh',
  EN: 'Cheshunt',
  EX: 'Exeter',
  FK: 'Falkirk',
  FY: 'Blackpool',
  G: 'Glasgow',
  GL: 'Gloucester',
  GU: 'Guildford',
  HA: 'Harrow',
  HD: 'Huddersfield',
  HG: 'Harrogate',
  HP: 'Hemel Hempstead',
  HR: 'Hereford',
  HS: 'Stornoway',
  HU: 'Kingston upon Hull',
  HX: 'Halifax',
  IG: 'Ilford',
  IP: 'Ipswich',
  IV: 'Inverness',
  KA: 'Kilmarnock',
  KT: 'Kingston upon Thames',
  KW: 'Kirkwall',
  KY: 'Kirkcaldy',
  L: 'Liverpool',
  LA: 'Lancaster',
  LD: 'Llandrindod Wells',
  LE: 'Leicester',
  LL: 'Llandudno',
  LN: 'Lincoln',
  LS: 'Leeds',
  LU: 'Luton',
  M: 'Manchester',
  ME: 'Rochester',
  MK: 'Milton Keynes',
  ML: 'Motherwell',
  N: 'Islington',
  NE: 'Newcastle upon Tyne',
  NG: 'Nottingham',
  NN: 'Northampton',
  NP: 'Newport',
  NR: 'Norwich',
  NW: 'Camden Town',
  OL: 'Oldham',
  OX: 'Oxford',
  PA: 'Paisley',
  PE: 'Peterborough',
  PH: 'Perth',
  PL: 'Plymouth',
  PO: 'Portsmouth',
  PR: 'Preston',
  RG: 'Reading',
  RH: 'Redhill',
  RM: 'Romford',
  S: 'Sheffield',
  SA: 'Swansea',
  SE: 'Camberwell',
  SG: 'Stevenage',
  SK: 'Stockport',
  SL: 'Slough',
  SM: 'Sutton',
  SN: 'Swindon',
  SO: 'Southampton',
  SP: 'Salisbury',
  SR: 'Sunderland',
  SS: 'Southend-on-Sea',
  ST: 'Stoke-on-Trent',
  SW: 'Battersea',
  SY: 'Shrewsbury',
  TA: 'Taunton',
  TD: 'Galashiels',
  TF: 'Telford',
  TN: 'Tonbridge',
  TQ: 'Torquay',
  TR: 'Truro',
  TS: 'Middlesbrough',
  TW: 'Twickenham',
  UB: 'Southall',
  W: 'Kensington',
  WA: 'Warrington',
  WC: 'London',
  WD: 'Watford',
  WF: 'Wakefield',
  WN: 'Wigan',
  WR: 'Worcester',
  WS: 'Walsall',
  WV: 'Wolverhampton',
  YO: 'York',
  ZE: 'Lerwick',
};

/** A UK postcode read from text: its area ('SW'), district ('SW1A') and, for a full one, the whole ('SW1A 1AA'). */
export interface ParsedPostcode {
  area: string;
  district: string;
  full: string | null;
}

const FULL = /^([A-Z]{1,2})(\d[A-Z\d]?)\s*(\d[A-Z]{2})$/;
const DISTRICT = /^([A-Z]{1,2})(\d[A-Z\d]?)$/;
const AREA = /^[A-Z]{1,2}$/;
/** A full postcode anywhere in a line of text (an address). */
const IN_TEXT = /\b([A-Z]{1,2})(\d[A-Z\d]?)\s*(\d[A-Z]{2})\b/i;

/**
 * `text` read as a whole postcode, district or area of a known postcode area (case and spaces
 * ignored: 'ls1 4ap', 'LS1', 'ls'), or null when it is none of these.
 */
export function parsePostcode(text: string): ParsedPostcode | null {
  const t = text.trim().toUpperCase();
  let m = FULL.exec(t);
  if (m) return known({ area: m[1]!, district: m[1]! + m[2]!, full: `${m[1]}${m[2]} ${m[3]}` });
  m = DISTRICT.exec(t);
  if (m) return known({ area: m[1]!, district: t, full: null });
  if (AREA.test(t)) return known({ area: t, district: t, full: null });
  return null;
}

/** The first full postcode written anywhere in `address`, or null. */
export function postcodeInText(address: string): ParsedPostcode | null {
  const m = IN_TEXT.exec(address);
  return m ? parsePostcode(m[0]) : null;
}

function known(p: ParsedPostcode): ParsedPostcode | null {
  return p.area in POSTCODE_AREA_PLACES ? p : null;
}
