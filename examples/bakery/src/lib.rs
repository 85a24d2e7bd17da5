//! A small bakery: a menu of prices, a till that fills a basket and prints a
//! receipt, and the shelf behind the counter.
//!
//! The code is deliberately plain; what this sample shows is how the Markdown
//! in `varar/` documents it and is checked by `cargo test`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// An amount of money in pence. Written `£2.50` in documents and receipts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Money {
    pence: i64,
}

impl Money {
    /// An amount of `pence` pence.
    pub const fn from_pence(pence: i64) -> Money {
        Money { pence }
    }

    /// The amount in pence.
    pub const fn pence(self) -> i64 {
        self.pence
    }

    /// The amount written as pounds and pence, e.g. `("2", "50")`.
    pub fn from_pounds_and_pence(pounds: &str, pence: &str) -> Result<Money, MoneyError> {
        let bad = || MoneyError(format!("£{pounds}.{pence}"));
        let pounds: i64 = pounds.parse().map_err(|_| bad())?;
        let pence: i64 = pence.parse().map_err(|_| bad())?;
        if !(0..100).contains(&pence) {
            return Err(bad());
        }
        pounds
            .checked_mul(100)
            .and_then(|p| p.checked_add(pence))
            .map(Money::from_pence)
            .ok_or_else(bad)
    }

    /// This amount times `quantity`.
    pub fn times(self, quantity: i64) -> Money {
        Money::from_pence(self.pence * quantity)
    }
}

impl std::ops::Add for Money {
    type Output = Money;
    fn add(self, other: Money) -> Money {
        Money::from_pence(self.pence + other.pence)
    }
}

impl std::ops::Sub for Money {
    type Output = Money;
    fn sub(self, other: Money) -> Money {
        Money::from_pence(self.pence - other.pence)
    }
}

impl std::iter::Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::default(), |a, b| a + b)
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.pence < 0 { "-" } else { "" };
        let p = self.pence.unsigned_abs();
        write!(f, "{sign}£{}.{:02}", p / 100, p % 100)
    }
}

impl FromStr for Money {
    type Err = MoneyError;

    /// Reads `£2.50`.
    fn from_str(s: &str) -> Result<Money, MoneyError> {
        let bad = || MoneyError(s.to_string());
        let digits = s.trim().strip_prefix('£').ok_or_else(bad)?;
        let (pounds, pence) = digits.split_once('.').ok_or_else(bad)?;
        if pence.len() != 2 {
            return Err(bad());
        }
        Money::from_pounds_and_pence(pounds, pence)
    }
}

/// Text that is not an amount like `£2.50`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoneyError(String);

impl fmt::Display for MoneyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not an amount like £2.50", self.0)
    }
}

impl std::error::Error for MoneyError {}

/// What the bakery sells, and at which price.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    prices: BTreeMap<String, Money>,
}

impl Menu {
    /// A menu with nothing on it.
    pub fn empty() -> Menu {
        Menu {
            prices: BTreeMap::new(),
        }
    }

    /// The everyday menu.
    pub fn house() -> Menu {
        let mut menu = Menu::empty();
        menu.set("baguette", Money::from_pence(180));
        menu.set("bun", Money::from_pence(80));
        menu.set("croissant", Money::from_pence(120));
        menu.set("scone", Money::from_pence(150));
        menu
    }

    /// Sell `item` at `price`.
    pub fn set(&mut self, item: &str, price: Money) {
        self.prices.insert(item.to_string(), price);
    }

    /// The menu name of `item` (`croissants` is a `croissant`) and its price.
    pub fn find(&self, item: &str) -> Option<(&str, Money)> {
        let singular = item.strip_suffix('s').unwrap_or(item);
        [item, singular].into_iter().find_map(|name| {
            self.prices
                .get_key_value(name)
                .map(|(k, v)| (k.as_str(), *v))
        })
    }
}

impl Default for Menu {
    fn default() -> Menu {
        Menu::house()
    }
}

/// Why the till refused something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TillError {
    /// The item is not on the menu.
    NotOnMenu(String),
    /// The customer paid less than the total.
    NotEnough {
        /// What the basket costs.
        total: Money,
        /// What was paid.
        paid: Money,
    },
}

impl fmt::Display for TillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TillError::NotOnMenu(item) => write!(f, "the menu has no {item}"),
            TillError::NotEnough { total, paid } => {
                write!(f, "{paid} does not cover the total of {total}")
            }
        }
    }
}

impl std::error::Error for TillError {}

/// One line of a basket: how many of an item, at which price each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasketLine {
    /// The menu name of the item.
    pub item: String,
    /// How many.
    pub quantity: i64,
    /// The price of one.
    pub unit_price: Money,
}

/// The till at the counter: a menu, the customer's basket and the receipt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Till {
    menu: Menu,
    basket: Vec<BasketLine>,
    customer: Option<String>,
}

impl Till {
    /// Replace today's menu.
    pub fn set_menu(&mut self, menu: Menu) {
        self.menu = menu;
    }

    /// Put `quantity` of `item` in the basket at today's price.
    pub fn put(&mut self, quantity: i64, item: &str) -> Result<(), TillError> {
        let (name, unit_price) = self
            .menu
            .find(item)
            .ok_or_else(|| TillError::NotOnMenu(item.to_string()))?;
        self.basket.push(BasketLine {
            item: name.to_string(),
            quantity,
            unit_price,
        });
        Ok(())
    }

    /// How many items the basket holds.
    pub fn item_count(&self) -> i64 {
        self.basket.iter().map(|l| l.quantity).sum()
    }

    /// What the basket costs.
    pub fn total(&self) -> Money {
        self.basket
            .iter()
            .map(|l| l.unit_price.times(l.quantity))
            .sum()
    }

    /// Take `paid` for the basket and give the change.
    pub fn pay(&self, paid: Money) -> Result<Money, TillError> {
        let total = self.total();
        if paid < total {
            return Err(TillError::NotEnough { total, paid });
        }
        Ok(paid - total)
    }

    /// Name the customer on the receipt.
    pub fn make_out_to(&mut self, customer: &str) {
        self.customer = Some(customer.to_string());
    }

    /// The printed receipt, one line per basket line, then the total.
    pub fn receipt(&self) -> String {
        let mut out = String::new();
        if let Some(customer) = &self.customer {
            out.push_str(&format!("Receipt for {customer}\n"));
        }
        for line in &self.basket {
            out.push_str(&format!(
                "{} x {} at {} = {}\n",
                line.quantity,
                line.item,
                line.unit_price,
                line.unit_price.times(line.quantity)
            ));
        }
        out.push_str(&format!("Total {}\n", self.total()));
        out
    }
}

/// The shelf could not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShelfError {
    /// What was asked for.
    pub wanted: i64,
    /// The item.
    pub item: String,
    /// What the shelf holds.
    pub have: i64,
}

impl fmt::Display for ShelfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot sell {} {}: only {} {} on the shelf",
            self.wanted, self.item, self.have, self.item
        )
    }
}

impl std::error::Error for ShelfError {}

/// The shelf behind the counter: how many of each item are left.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shelf {
    stock: BTreeMap<String, i64>,
}

impl Shelf {
    /// How many of `item` the shelf holds.
    pub fn count(&self, item: &str) -> i64 {
        self.stock.get(item).copied().unwrap_or(0)
    }

    /// The baker puts `quantity` more of `item` on the shelf.
    pub fn stock(&mut self, quantity: i64, item: &str) {
        *self.stock.entry(item.to_string()).or_insert(0) += quantity;
    }

    /// Take `quantity` of `item` off the shelf for a customer.
    pub fn sell(&mut self, quantity: i64, item: &str) -> Result<(), ShelfError> {
        let have = self.count(item);
        if quantity > have {
            return Err(ShelfError {
                wanted: quantity,
                item: item.to_string(),
                have,
            });
        }
        self.stock.insert(item.to_string(), have - quantity);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_reads_and_writes_document_notation() {
        for (text, pence) in [("£2.50", 250), ("£0.05", 5), ("£12.00", 1200)] {
            let money: Money = text.parse().unwrap();
            assert_eq!(money.pence(), pence);
            assert_eq!(money.to_string(), text);
        }
        assert_eq!(Money::from_pence(-30).to_string(), "-£0.30");
        for bad in ["2.50", "£2.5", "£x.50", "£2"] {
            assert!(bad.parse::<Money>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_menu_finds_plurals() {
        let menu = Menu::house();
        assert_eq!(
            menu.find("croissants"),
            Some(("croissant", Money::from_pence(120)))
        );
        assert_eq!(menu.find("pretzel"), None);
    }

    #[test]
    fn the_till_totals_and_prints() {
        let mut till = Till::default();
        till.put(2, "buns").unwrap();
        assert_eq!(till.total(), Money::from_pence(160));
        assert_eq!(till.pay(Money::from_pence(200)), Ok(Money::from_pence(40)));
        assert_eq!(till.receipt(), "2 x bun at £0.80 = £1.60\nTotal £1.60\n");
    }

    #[test]
    fn the_shelf_refuses_to_oversell() {
        let mut shelf = Shelf::default();
        shelf.stock(3, "scones");
        let err = shelf.sell(4, "scones").unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot sell 4 scones: only 3 scones on the shelf"
        );
    }
}
