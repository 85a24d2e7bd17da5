//! Whether failure text is coloured: decided once, here (STYLE §2.6).

use libtest_mimic::{Arguments, ColorSetting};

use varar_core::render::Styles;

/// What the environment says about colour, read once by the shell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColorEnv {
    /// `NO_COLOR` is set (to anything).
    pub no_color: bool,
    /// `CLICOLOR_FORCE` is set to something other than `0`.
    pub force: bool,
    /// `TERM=dumb`.
    pub dumb: bool,
    /// Standard output is a terminal.
    pub tty: bool,
}

impl ColorEnv {
    /// Read the variables and the terminal check.
    pub fn read() -> Self {
        use std::io::IsTerminal;
        let var = |name: &str| std::env::var_os(name);
        ColorEnv {
            no_color: var("NO_COLOR").is_some(),
            force: var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0"),
            dumb: var("TERM").is_some_and(|v| v == "dumb"),
            tty: std::io::stdout().is_terminal(),
        }
    }
}

/// libtest's `--color` first, then `NO_COLOR`, `CLICOLOR_FORCE`, `TERM=dumb`,
/// and otherwise colour only on a terminal.
pub fn styles(args: &Arguments, env: ColorEnv) -> Styles {
    let on = match args.color {
        Some(ColorSetting::Always) => true,
        Some(ColorSetting::Never) => false,
        Some(ColorSetting::Auto) | None => {
            if env.no_color {
                false
            } else if env.force {
                true
            } else if env.dumb {
                false
            } else {
                env.tty
            }
        }
    };
    if on {
        Styles::plain().colorize()
    } else {
        Styles::plain()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(color: Option<ColorSetting>) -> Arguments {
        Arguments {
            color,
            ..Arguments::default()
        }
    }

    #[test]
    fn precedence() {
        let tty = ColorEnv {
            tty: true,
            ..ColorEnv::default()
        };
        let plain = Styles::plain();
        let coloured = Styles::plain().colorize();
        assert_eq!(styles(&args(None), tty), coloured);
        assert_eq!(styles(&args(None), ColorEnv::default()), plain);
        assert_eq!(
            styles(
                &args(Some(ColorSetting::Always)),
                ColorEnv {
                    no_color: true,
                    ..tty
                }
            ),
            coloured
        );
        assert_eq!(styles(&args(Some(ColorSetting::Never)), tty), plain);
        assert_eq!(
            styles(
                &args(None),
                ColorEnv {
                    no_color: true,
                    force: true,
                    ..tty
                }
            ),
            plain
        );
        assert_eq!(
            styles(
                &args(None),
                ColorEnv {
                    force: true,
                    dumb: true,
                    ..ColorEnv::default()
                }
            ),
            coloured
        );
        assert_eq!(styles(&args(None), ColorEnv { dumb: true, ..tty }), plain);
    }
}
