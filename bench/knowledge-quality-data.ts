// The labelled set of bench/knowledge-quality.ts: a bike shop and café ("Harbour Bikes", Lisbon,
// with a Porto branch) as a new customer would load it — text items, pages added by URL, pages
// crawled from its site, PDFs and DOCX files — with near-duplicate distractors (the Porto
// branch's hours and prices, trade-in next to second-hand) and visitor questions: plain ones,
// paraphrased ones (other words than the passage's) and ones the collection cannot answer.

export const TEXT_ITEMS: { name: string; content: string }[] = [
  {
    name: 'Opening hours',
    content:
      'We are open from 6:30 to 19:00 on weekdays and from 8:00 to 17:00 on Saturdays. On Sundays the café opens at 9:00 and the workshop stays closed.',
  },
  { name: 'Opening hours Porto', content: 'The Porto branch is open from 9:00 to 18:00 Monday to Friday and closed at weekends.' },
  {
    name: 'Holiday closures',
    content:
      'The shop closes on 25 December, 1 January and Easter Monday. In August the workshop takes a two-week break from the 5th to the 19th.',
  },
  {
    name: 'Bike delivery',
    content: 'Our couriers bring orders by cargo bicycle within the city ring. Deliveries leave the shop at 11:00 and 16:00 every weekday.',
  },
  {
    name: 'Delivery fees',
    content:
      'Delivery costs 4.90 euros; orders above 60 euros are delivered free of charge inside the city ring. Outside the ring we ship by parcel service for 7.50 euros.',
  },
  {
    name: 'Returns and refunds',
    content:
      'Unused items can be returned within 30 days with the receipt. The refund is paid to the original card within five working days.',
  },
  {
    name: 'Warranty',
    content:
      'New bicycles carry a two-year warranty on frame and components; wear parts such as chains, tyres and brake pads are excluded.',
  },
  {
    name: 'Repair prices',
    content: 'A basic service costs 49 euros, a full service 99 euros. Fixing a flat tyre costs 12 euros including the inner tube.',
  },
  {
    name: 'Workshop appointments',
    content: 'Book a repair slot online or by phone. Walk-in repairs are accepted before 10:00 when a mechanic is free.',
  },
  {
    name: 'Rental bikes',
    content: 'City bikes rent for 15 euros a day, e-bikes for 35 euros a day. A deposit of 100 euros and an ID card are required.',
  },
  {
    name: 'Rental bikes Porto',
    content: 'At our Porto branch city bikes rent for 18 euros a day and e-bikes for 40 euros a day; the deposit there is 150 euros.',
  },
  { name: 'Café menu', content: 'Espresso 1.80, flat white with oat milk 3.20, pastel de nata 1.50. Vegan cakes are baked every morning.' },
  { name: 'Allergens', content: 'All cakes may contain traces of nuts. Gluten-free brownies are available on Fridays.' },
  {
    name: 'Payment methods',
    content: 'We accept cash, debit and credit cards, Apple Pay and MB Way. Companies can pay invoices by bank transfer within 14 days.',
  },
  {
    name: 'Gift cards',
    content: 'Gift vouchers are sold from 20 to 200 euros and are valid for three years in the shop, the café and the workshop.',
  },
  {
    name: 'Parking',
    content: 'Customers park free of charge for one hour in the garage behind the shop; bicycle racks are at the entrance.',
  },
  {
    name: 'Contact',
    content: 'Call us on +351 210 555 010 or write to hello@harbourbikes.example. We answer emails within one working day.',
  },
  {
    name: 'Group tours',
    content:
      'Guided bike tours along the river start every Saturday at 10:00, last three hours and cost 45 euros per person, bike included.',
  },
  { name: 'Children', content: 'Child seats and trailers rent for 5 euros a day. Kids bikes from 12 inches are on sale in the shop.' },
  { name: 'Loyalty programme', content: 'Every tenth coffee is free with the stamp card. Members get 10 percent off workshop labour.' },
  {
    name: 'Jobs',
    content: 'We are hiring a bicycle mechanic full time and a barista for weekends. Send your CV to jobs@harbourbikes.example.',
  },
  {
    name: 'E-bike batteries',
    content:
      'Batteries are charged for free at the shop. A replacement battery costs from 450 euros; old batteries are recycled free of charge.',
  },
  { name: 'Lost and found', content: 'Things left behind in the café are kept for 30 days at the counter.' },
  { name: 'Wi-Fi', content: 'Free Wi-Fi in the café: the network is HarbourGuest and the password is printed on your receipt.' },
];

/** Pages of the shop's site added one by one on the URL tab (path, title, body). */
export const URL_PAGES: { path: string; title: string; body: string }[] = [
  {
    path: '/insurance',
    title: 'Bike insurance',
    body: 'Insure your bicycle against theft and vandalism through our partner for 6 euros a month. Claims are settled within two weeks.',
  },
  {
    path: '/sizing',
    title: 'Frame size guide',
    body: 'Measure your inseam in centimetres and multiply it by 0.66 to find your frame size. Staff help you in the shop.',
  },
  {
    path: '/events',
    title: 'Events',
    body: 'The repair café takes place on the first Sunday of every month: bring your bicycle and fix it with our mechanics, free of charge.',
  },
  {
    path: '/sustainability',
    title: 'Sustainability',
    body: 'Solar panels on our roof power the workshop, and we refurbish old bicycles instead of scrapping them.',
  },
  {
    path: '/privacy',
    title: 'Privacy',
    body: 'Order data is stored for ten years as tax law requires. We send no newsletter without your consent.',
  },
  {
    path: '/newsletter',
    title: 'Newsletter',
    body: 'Subscribe to hear about new arrivals and events once a month. Unsubscribe with one click.',
  },
];

/** The shop's catalogue pages, found by crawling /shop (path, title, body). */
export const CRAWL_PAGES: { path: string; title: string; body: string }[] = [
  {
    path: '/shop/cargo',
    title: 'Cargo bikes',
    body: 'Our cargo bikes carry up to 80 kg in the front box. Test rides are possible on request.',
  },
  { path: '/shop/helmets', title: 'Helmets', body: 'Helmets in sizes S to L; fitting in the shop is free.' },
  { path: '/shop/locks', title: 'Locks', body: 'We recommend a D-lock of security level 15 or higher for city parking.' },
  { path: '/shop/lights', title: 'Lights', body: 'Front and rear lights charge over USB and meet the legal requirements for road use.' },
  { path: '/shop/tyres', title: 'Tyres', body: 'Puncture-resistant touring tyres cost 35 euros each, fitting included.' },
  { path: '/shop/clothing', title: 'Clothing', body: 'Rain jackets, gloves and reflective vests for commuting in winter.' },
  {
    path: '/shop/used',
    title: 'Second-hand bikes',
    body: 'We buy used bicycles in good condition after an inspection by our mechanics and sell them with a six-month guarantee.',
  },
  {
    path: '/shop/trade-in',
    title: 'Trade-in',
    body: 'Trade in your old bicycle when you buy a new one: its value is credited against the price.',
  },
  // Also added on the URL tab above: the crawl must not store it twice.
  { path: '/insurance', title: 'Bike insurance', body: '' },
];

export const PDF_ITEMS: { name: string; lines: string[] }[] = [
  {
    name: 'Terms of sale',
    lines: [
      'Terms of sale of Harbour Bikes.',
      'All prices include VAT at 23 percent.',
      'Ownership passes to the buyer on full payment.',
      'Disputes are settled by the courts of Lisbon.',
    ],
  },
  {
    name: 'Safety recall 2026',
    lines: [
      'Safety recall, March 2026.',
      'Brake levers of the Urban 3 model may crack.',
      'Bring the bicycle to the workshop for a free replacement of the levers.',
    ],
  },
];

export const DOCX_ITEMS: { name: string; paragraphs: string[]; table?: string[][] }[] = [
  {
    name: 'Corporate fleet offer',
    paragraphs: [
      'Companies can lease a fleet of bicycles for their staff.',
      'The minimum fleet is ten bicycles; maintenance is included in the monthly rate.',
    ],
    table: [
      ['Fleet size', 'Monthly rate per bike'],
      ['10 to 29', '39 euros'],
      ['30 or more', '33 euros'],
    ],
  },
  {
    name: 'Bike storage',
    paragraphs: [
      'Winter storage: we keep your bicycle dry and safe from November to March for 60 euros per season, with a free check-up before you collect it.',
    ],
  },
];

/** Visitor questions: `expect` lists the item names that answer (empty: no answer in the collection). */
export const QUESTIONS: { q: string; expect: string[]; kind: 'plain' | 'paraphrase' | 'none' }[] = [
  { q: 'What are your hours?', expect: ['Opening hours'], kind: 'plain' },
  { q: 'When do you open on Sunday?', expect: ['Opening hours'], kind: 'plain' },
  { q: 'What time do you close on Saturdays?', expect: ['Opening hours'], kind: 'paraphrase' },
  { q: 'Is the Porto branch open at weekends?', expect: ['Opening hours Porto'], kind: 'plain' },
  { q: 'Are you closed at Christmas?', expect: ['Holiday closures'], kind: 'paraphrase' },
  { q: 'Do you deliver by bike?', expect: ['Bike delivery'], kind: 'plain' },
  { q: 'Is delivery free?', expect: ['Delivery fees'], kind: 'plain' },
  { q: 'How much does shipping cost outside the city?', expect: ['Delivery fees'], kind: 'plain' },
  { q: 'Can I return something I bought?', expect: ['Returns and refunds'], kind: 'plain' },
  { q: 'How long until the refund reaches my card?', expect: ['Returns and refunds'], kind: 'paraphrase' },
  { q: 'How long is the warranty on a new bike?', expect: ['Warranty'], kind: 'plain' },
  { q: 'Are brake pads covered?', expect: ['Warranty'], kind: 'paraphrase' },
  { q: 'How much is a full service?', expect: ['Repair prices'], kind: 'plain' },
  { q: 'What does it cost to fix a flat tyre?', expect: ['Repair prices'], kind: 'plain' },
  { q: 'Can I come in for a repair without booking?', expect: ['Workshop appointments'], kind: 'paraphrase' },
  { q: 'How much is it to rent an e-bike?', expect: ['Rental bikes', 'Rental bikes Porto'], kind: 'plain' },
  { q: 'How much is an e-bike rental in Porto?', expect: ['Rental bikes Porto'], kind: 'plain' },
  { q: 'What do I need to bring to rent a bike?', expect: ['Rental bikes', 'Rental bikes Porto'], kind: 'paraphrase' },
  { q: 'Do you have oat milk?', expect: ['Café menu'], kind: 'plain' },
  { q: 'How much is a pastel de nata?', expect: ['Café menu'], kind: 'plain' },
  { q: 'Do your cakes contain nuts?', expect: ['Allergens'], kind: 'plain' },
  { q: 'Anything gluten-free?', expect: ['Allergens'], kind: 'plain' },
  { q: 'Can I pay with MB Way?', expect: ['Payment methods'], kind: 'plain' },
  { q: 'Do you take credit cards?', expect: ['Payment methods'], kind: 'plain' },
  { q: 'How long are gift vouchers valid?', expect: ['Gift cards'], kind: 'plain' },
  { q: 'Where can I park my car?', expect: ['Parking'], kind: 'plain' },
  { q: 'What is your phone number?', expect: ['Contact'], kind: 'paraphrase' },
  { q: 'How quickly do you answer emails?', expect: ['Contact'], kind: 'plain' },
  { q: 'Do you run guided tours?', expect: ['Group tours'], kind: 'plain' },
  { q: 'How long does the river tour last?', expect: ['Group tours'], kind: 'plain' },
  { q: 'Can I rent a child seat?', expect: ['Children'], kind: 'plain' },
  { q: 'Do you have a stamp card for coffee?', expect: ['Loyalty programme'], kind: 'plain' },
  { q: 'Are you hiring mechanics?', expect: ['Jobs'], kind: 'plain' },
  { q: 'How much is a replacement battery for my e-bike?', expect: ['E-bike batteries'], kind: 'plain' },
  { q: 'I left my scarf in the café, do you keep lost things?', expect: ['Lost and found'], kind: 'paraphrase' },
  { q: 'What is the Wi-Fi password?', expect: ['Wi-Fi'], kind: 'plain' },
  { q: 'Can I insure my bike against theft?', expect: ['Bike insurance'], kind: 'plain' },
  { q: 'Which frame size do I need?', expect: ['Frame size guide'], kind: 'plain' },
  { q: 'When is the repair café?', expect: ['Events'], kind: 'plain' },
  { q: 'Is your workshop powered by solar energy?', expect: ['Sustainability'], kind: 'plain' },
  { q: 'How long do you keep my order data?', expect: ['Privacy'], kind: 'plain' },
  { q: 'How do I unsubscribe from the newsletter?', expect: ['Newsletter'], kind: 'plain' },
  { q: 'How much weight can a cargo bike carry?', expect: ['Cargo bikes'], kind: 'plain' },
  { q: 'Do you fit helmets?', expect: ['Helmets'], kind: 'plain' },
  { q: 'Which lock do you recommend?', expect: ['Locks'], kind: 'plain' },
  { q: 'Are your bike lights rechargeable over USB?', expect: ['Lights'], kind: 'plain' },
  { q: 'Do you sell puncture-resistant tyres?', expect: ['Tyres'], kind: 'plain' },
  { q: 'Do you sell rain jackets?', expect: ['Clothing'], kind: 'plain' },
  { q: 'Will you buy my used bicycle?', expect: ['Second-hand bikes', 'Trade-in'], kind: 'plain' },
  { q: 'Can I trade in my old bike?', expect: ['Trade-in'], kind: 'plain' },
  { q: 'Is VAT included in your prices?', expect: ['Terms of sale'], kind: 'plain' },
  { q: 'Which brake levers are recalled?', expect: ['Safety recall 2026'], kind: 'plain' },
  { q: 'Do you lease bikes to companies?', expect: ['Corporate fleet offer'], kind: 'plain' },
  { q: 'What is the monthly rate for a fleet of 30 bikes?', expect: ['Corporate fleet offer'], kind: 'plain' },
  { q: 'Can I store my bike over the winter?', expect: ['Bike storage'], kind: 'plain' },
  // No answer in the collection.
  { q: 'Do you sell skateboards?', expect: [], kind: 'none' },
  { q: 'Can I bring my dog?', expect: [], kind: 'none' },
  { q: 'Do you have a shop in Madrid?', expect: [], kind: 'none' },
  { q: 'What will the weather be tomorrow?', expect: [], kind: 'none' },
  { q: 'Do you sell train tickets?', expect: [], kind: 'none' },
  { q: 'Who is your CEO?', expect: [], kind: 'none' },
  { q: 'Is there a swimming pool?', expect: [], kind: 'none' },
  { q: 'Do you offer yoga classes?', expect: [], kind: 'none' },
  { q: 'Can I order a pizza?', expect: [], kind: 'none' },
  { q: 'Do you repair cars?', expect: [], kind: 'none' },
  { q: 'What is the capital of France?', expect: [], kind: 'none' },
  { q: 'Do you serve vegan burgers?', expect: [], kind: 'none' },
  { q: 'Do you sell electric scooters?', expect: [], kind: 'none' },
  { q: 'Can I buy a surfboard here?', expect: [], kind: 'none' },
  { q: 'Do you have hotel rooms?', expect: [], kind: 'none' },
  { q: 'How do I reset my account password?', expect: [], kind: 'none' },
  { q: 'Do you teach kids to swim?', expect: [], kind: 'none' },
  { q: 'What is the price of a taxi to the airport?', expect: [], kind: 'none' },
];
