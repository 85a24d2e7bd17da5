use super::*;
use crate::tests::support::{bakery, plan};

fn decode(data: &[SemanticToken]) -> Vec<(u32, u32, u32, u32, u32)> {
    let (mut line, mut col) = (0, 0);
    data.iter()
        .map(|t| {
            line += t.delta_line;
            col = if t.delta_line == 0 {
                col + t.delta_start
            } else {
                t.delta_start
            };
            (line, col, t.length, t.token_type, t.token_modifiers_bitset)
        })
        .collect()
}

#[test]
fn steps_and_their_parameters_but_not_prose() {
    let index = bakery();
    let text = "# Basket\n\nSome prose. I put 2 croissants in the basket and I ask for a receipt made out to \"Ada\".\n\nNow the total is £2.40.\n";
    let a = plan(&index, text);
    let tokens = decode(&semantic_tokens(&a, &index).data);
    assert_eq!(
        tokens,
        [
            (2, 12, 6, STEP, STIMULUS),       // "I put "
            (2, 18, 1, PARAMETER, STIMULUS),  // "2"
            (2, 19, 1, STEP, STIMULUS),       // " "
            (2, 20, 10, PARAMETER, STIMULUS), // "croissants"
            (2, 30, 14, STEP, STIMULUS),      // " in the basket"
            (2, 49, 33, STEP, STIMULUS),      // "I ask … out to \""
            (2, 82, 3, PARAMETER, STIMULUS),  // Ada, inside its quotes
            (2, 85, 1, STEP, STIMULUS),       // the closing quote
            (4, 4, 13, STEP, SENSOR),         // "the total is "
            (4, 17, 5, PARAMETER, SENSOR),    // "£2.40": a custom type, whole
        ]
    );
}

#[test]
fn a_token_across_a_line_end_is_cut() {
    let source = Source::new("ab\ncd");
    // A token across a line end is cut in two.
    let data = encode(
        &source,
        &[RawToken {
            from: 1,
            to: 4,
            kind: STEP,
            modifiers: 0,
        }],
    );
    assert_eq!(decode(&data), [(0, 1, 1, STEP, 0), (1, 0, 1, STEP, 0)]);
}

#[test]
fn the_legend_matches_the_indices() {
    let legend = legend();
    assert_eq!(
        legend.token_types[STEP as usize],
        SemanticTokenType::FUNCTION
    );
    assert_eq!(
        legend.token_types[PARAMETER as usize],
        SemanticTokenType::PARAMETER
    );
    assert_eq!(
        legend.token_types[REFERENCE as usize],
        SemanticTokenType::NAMESPACE
    );
    assert_eq!(legend.token_modifiers[0].as_str(), "stimulus");
    assert_eq!(legend.token_modifiers[1].as_str(), "sensor");
    assert_eq!((STIMULUS, SENSOR), (1 << 0, 1 << 1));
}
