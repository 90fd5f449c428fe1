//! The demo's business data: 20,000 deterministic orders and the sales report derived from them.

use std::fmt::Write as _;

/// How many orders the demo seeds.
pub const SEED_ORDERS: usize = 20_000;

/// The number of the first seeded order.
pub const FIRST_NUMBER: u32 = 10_001;

/// The Orders table's columns, in order.
pub const ORDER_COLUMNS: [&str; 4] = ["Order", "Customer", "Status", "Amount"];

/// Where an order stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Status {
    /// Still being edited.
    #[default]
    Draft,
    /// Confirmed and paid.
    Submitted,
    /// On its way.
    Shipped,
}

impl Status {
    /// What a person reads.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "Draft",
            Self::Submitted => "Submitted",
            Self::Shipped => "Shipped",
        }
    }
}

/// One line of an order.
#[derive(Clone, Debug, PartialEq)]
pub struct LineItem {
    /// Product name.
    pub product: String,
    /// How many.
    pub quantity: u32,
    /// Price of one.
    pub unit_price: f64,
}

/// One order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Order {
    /// The order number, shown as `#10001`.
    pub number: u32,
    /// Who ordered.
    pub customer: String,
    /// Where it stands.
    pub status: Status,
    /// Total amount.
    pub amount: f64,
    /// Currency code.
    pub currency: String,
    /// Who receives it.
    pub recipient: String,
    /// Where it goes.
    pub address: String,
    /// The card it is paid with (a secret: never shown to agents).
    pub card_number: String,
    /// Its lines.
    pub items: Vec<LineItem>,
    /// Days before today it was placed (0 = today).
    pub days_ago: u32,
}

impl Order {
    /// `#10001`.
    pub fn label(&self) -> String {
        format!("#{}", self.number)
    }
}

/// Products the seed draws from.
pub const PRODUCTS: [&str; 10] = [
    "Espresso beans",
    "Green tea",
    "Ceramic mug",
    "Milk frother",
    "Pour-over kettle",
    "Paper filters",
    "Cocoa powder",
    "Oat milk",
    "Travel tumbler",
    "Hand grinder",
];

const CUSTOMERS: [&str; 12] = [
    "Ada Lovelace",
    "Alan Turing",
    "Grace Hopper",
    "Edsger Dijkstra",
    "Barbara Liskov",
    "Donald Knuth",
    "Frances Allen",
    "John McCarthy",
    "Margaret Hamilton",
    "Niklaus Wirth",
    "Radia Perlman",
    "Ken Thompson",
];

/// A small deterministic generator (`SplitMix64`), so every run seeds the same orders.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The 20,000 seeded orders.
pub fn seed_orders() -> Vec<Order> {
    (0..SEED_ORDERS)
        .map(|i| {
            let r = mix(i as u64);
            let customer = CUSTOMERS[(r % CUSTOMERS.len() as u64) as usize];
            let status = match (r >> 8) % 10 {
                0 | 1 => Status::Draft,
                2..=5 => Status::Submitted,
                _ => Status::Shipped,
            };
            let n_items = 1 + (r >> 16) % 3;
            let items: Vec<LineItem> = (0..n_items)
                .map(|k| {
                    let rk = mix(r ^ (k + 1));
                    LineItem {
                        product: PRODUCTS[(rk % PRODUCTS.len() as u64) as usize].to_owned(),
                        quantity: 1 + (rk >> 8) as u32 % 4,
                        unit_price: f64::from(200 + (rk >> 16) as u32 % 4800) / 100.0,
                    }
                })
                .collect();
            Order {
                number: FIRST_NUMBER + i as u32,
                customer: customer.to_owned(),
                status,
                amount: cents_total(&items),
                currency: "USD".to_owned(),
                recipient: customer.to_owned(),
                address: format!("{} Main Street, Springfield", 1 + (r >> 24) % 999),
                card_number: format!("4111 1111 1111 {:04}", (r >> 32) % 10_000),
                items,
                days_ago: ((r >> 40) % 7) as u32,
            }
        })
        .collect()
}

/// Formats an amount as `$1,234.50`.
///
/// ```
/// assert_eq!(order_demo::data::money(1234.5), "$1,234.50");
/// assert_eq!(order_demo::data::money(-0.5), "-$0.50");
/// ```
pub fn money(amount: f64) -> String {
    let cents = (amount * 100.0).round() as i64;
    let (whole, frac) = (cents.unsigned_abs() / 100, cents.unsigned_abs() % 100);
    format!("{}${}.{frac:02}", if cents < 0 { "-" } else { "" }, thousands(whole))
}

/// 20000 → "20,000".
pub fn thousands(n: impl Into<u64>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The Sales Report's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Orders placed today (not drafts).
    pub orders_today: usize,
    /// Revenue today.
    pub revenue_today: f64,
    /// Average order value today.
    pub average_today: f64,
    /// Revenue per day, oldest first; the last is today.
    pub revenue_per_day: [f64; 7],
    /// Top 5 products by quantity sold, with quantities.
    pub top_products: Vec<(String, u32)>,
}

impl Report {
    /// Computes the report from all non-draft orders.
    pub fn compute(orders: &[Order]) -> Self {
        let mut revenue_per_day = [0.0; 7];
        let mut orders_today = 0;
        let mut per_product = std::collections::HashMap::<&str, u32>::new();
        for o in orders.iter().filter(|o| o.status != Status::Draft) {
            let day = o.days_ago.min(6) as usize;
            revenue_per_day[6 - day] += o.amount;
            if o.days_ago == 0 {
                orders_today += 1;
            }
            for it in &o.items {
                *per_product.entry(it.product.as_str()).or_default() += it.quantity;
            }
        }
        let mut top: Vec<(String, u32)> = per_product.into_iter().map(|(p, q)| (p.to_owned(), q)).collect();
        top.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        top.truncate(5);
        let revenue_today = revenue_per_day[6];
        Self {
            orders_today,
            revenue_today,
            average_today: if orders_today == 0 { 0.0 } else { revenue_today / orders_today as f64 },
            revenue_per_day,
            top_products: top,
        }
    }

    /// Day labels matching `revenue_per_day`.
    pub fn day_labels() -> [&'static str; 7] {
        ["6 days ago", "5 days ago", "4 days ago", "3 days ago", "2 days ago", "Yesterday", "Today"]
    }

    /// The chart's text alternative: every number it shows.
    pub fn chart_alt(&self) -> String {
        let mut alt = String::from("Bar chart of revenue per day:");
        for (label, v) in Self::day_labels().iter().zip(self.revenue_per_day) {
            let _ = write!(alt, " {label} {};", money(v));
        }
        alt.pop();
        alt
    }
}

/// The total of line items, to the cent. Zero for none: an empty sum of `f64` is `-0.0` in Rust,
/// which an agent would read as `-0.0` and a person as "-0.00".
pub fn cents_total(items: &[LineItem]) -> f64 {
    let total = items.iter().map(|it| f64::from(it.quantity) * it.unit_price).sum::<f64>();
    (total * 100.0).round() / 100.0 + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeding_is_deterministic_and_complete() {
        let a = seed_orders();
        assert_eq!(a.len(), SEED_ORDERS);
        assert_eq!(a, seed_orders(), "same orders on every run");
        assert!(a.iter().any(|o| o.status == Status::Draft));
        assert!(a.iter().all(|o| o.amount > 0.0 && !o.items.is_empty()));
    }

    #[test]
    fn money_is_grouped() {
        assert_eq!(money(1234.5), "$1,234.50");
        assert_eq!(money(0.0), "$0.00");
        assert_eq!(money(1_000_000.0), "$1,000,000.00");
        assert_eq!(thousands(20_000u32), "20,000");
        assert_eq!(thousands(999u32), "999");
    }
}
