//! The byte stream to and from the editor (shell): LSP base-protocol
//! frames (`Content-Length` headers, a JSON body) on stdin and stdout,
//! read and written on threads of their own, with the messages on the
//! channels of an [`lsp_server::Connection`].
//!
//! Unlike `lsp_server`'s own stdio transport, bad input is never silent:
//!
//! - A body that is not JSON is answered with a `-32700` (parse error)
//!   response of `id` `null`, and one that is JSON but no message (an
//!   array: a batch, which LSP does not have; a number; an object without
//!   `method` or `id`) with `-32600` (invalid request), its `id` when it
//!   has one. The frame was delimited by its header, so the stream is still
//!   in step: the server goes on.
//! - A frame that cannot be delimited (a header line that is not
//!   `Name: value` ended by CRLF, no `Content-Length`, a length that is not
//!   a number or above [`MAX_CONTENT_LENGTH`], input that ends inside a
//!   frame) leaves no way to find the next message: reading stops with a
//!   [`TransportError`], which `cargo varar lsp` prints on stderr before
//!   exiting with status 2.

use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, Message};
use serde_json::Value;

/// The largest body accepted, in bytes (256 MiB): a longer
/// `Content-Length` is taken for a broken stream, not a message.
pub const MAX_CONTENT_LENGTH: usize = 256 << 20;

/// Why the stream from or to the editor could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TransportError {
    /// A header the base protocol does not allow.
    #[error("malformed message header {header:?}: expected `Name: value` ended by CRLF")]
    Header {
        /// The line as read.
        header: String,
    },
    /// A header block without `Content-Length`.
    #[error("a message header has no Content-Length; the messages that follow cannot be found")]
    NoLength,
    /// A `Content-Length` that is not a byte count this server takes.
    #[error(
        "Content-Length {value:?} is not a length this server accepts (a whole number of bytes, \
         at most {MAX_CONTENT_LENGTH})"
    )]
    Length {
        /// The value as written.
        value: String,
    },
    /// The input ended inside a frame.
    #[error("the input ended inside a message ({context})")]
    Truncated {
        /// Where.
        context: String,
    },
    /// Reading or writing failed.
    #[error("cannot {what} the editor: {source}")]
    Io {
        /// `read from` or `write to`.
        what: &'static str,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
}

/// The transport's threads; [`Transport::join`] says how reading ended.
#[derive(Debug)]
pub struct Transport {
    reader: JoinHandle<Result<(), TransportError>>,
    writer: JoinHandle<Result<(), TransportError>>,
}

impl Transport {
    /// Whether the reader has stopped, waiting at most `wait` for it.
    pub fn reader_stopped(&self, wait: std::time::Duration) -> bool {
        let until = std::time::Instant::now() + wait;
        while !self.reader.is_finished() {
            if std::time::Instant::now() >= until {
                return false;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        true
    }

    /// Wait for both threads: the first error of the reader, else of the
    /// writer.
    pub fn join(self) -> Result<(), TransportError> {
        let reader = self.reader.join().unwrap_or(Ok(()));
        let writer = self.writer.join().unwrap_or(Ok(()));
        reader.and(writer)
    }
}

/// A connection on stdin and stdout.
pub fn stdio() -> (Connection, Transport) {
    connect(io::BufReader::new(io::stdin()), io::stdout())
}

/// A connection reading frames from `input` and writing them to `output`.
pub fn connect<R, W>(input: R, output: W) -> (Connection, Transport)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let output = Arc::new(Mutex::new(output));
    let (to_server, from_editor) = crossbeam_channel::bounded::<Message>(0);
    let (to_editor, from_server) = crossbeam_channel::unbounded::<Message>();
    let out = Arc::clone(&output);
    let writer = std::thread::spawn(move || write_messages(&from_server, &out));
    let reader = std::thread::spawn(move || read_messages(input, &to_server, &output));
    let connection = Connection {
        sender: to_editor,
        receiver: from_editor,
    };
    (connection, Transport { reader, writer })
}

fn write_messages<W: Write>(
    from_server: &Receiver<Message>,
    output: &Mutex<W>,
) -> Result<(), TransportError> {
    for message in from_server {
        let mut out = output
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        message
            .write(&mut *out)
            .map_err(|source| TransportError::Io {
                what: "write to",
                source,
            })?;
    }
    Ok(())
}

fn read_messages<R: BufRead, W: Write>(
    mut input: R,
    to_server: &Sender<Message>,
    output: &Mutex<W>,
) -> Result<(), TransportError> {
    while let Some(body) = read_frame(&mut input)? {
        let message = match parse(&body) {
            Ok(message) => message,
            Err(answer) => {
                let mut out = output
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                write_frame(&mut *out, &answer.to_string()).map_err(|source| {
                    TransportError::Io {
                        what: "write to",
                        source,
                    }
                })?;
                continue;
            }
        };
        let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
        if to_server.send(message).is_err() || exit {
            // The server stopped, or the editor said `exit`: nothing more
            // is read.
            break;
        }
    }
    Ok(())
}

/// The body of the next frame; `None` at the end of the input between
/// frames.
pub fn read_frame(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, TransportError> {
    let io = |source| TransportError::Io {
        what: "read from",
        source,
    };
    let mut length: Option<usize> = None;
    let mut first = true;
    loop {
        let mut line = Vec::new();
        let n = input.read_until(b'\n', &mut line).map_err(io)?;
        if n == 0 {
            if first {
                return Ok(None);
            }
            return Err(TransportError::Truncated {
                context: "in its header".into(),
            });
        }
        first = false;
        let text = String::from_utf8_lossy(&line).into_owned();
        let Some(header) = text.strip_suffix("\r\n") else {
            return Err(TransportError::Header { header: text });
        };
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(": ") else {
            return Err(TransportError::Header {
                header: header.to_owned(),
            });
        };
        if name.eq_ignore_ascii_case("Content-Length") {
            let parsed = value
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| *n <= MAX_CONTENT_LENGTH);
            length = Some(parsed.ok_or_else(|| TransportError::Length {
                value: value.to_owned(),
            })?);
        }
    }
    let length = length.ok_or(TransportError::NoLength)?;
    let mut body = Vec::with_capacity(length.min(1 << 20));
    input
        .take(length as u64)
        .read_to_end(&mut body)
        .map_err(io)?;
    if body.len() < length {
        return Err(TransportError::Truncated {
            context: format!(
                "{} of the {length} bytes its Content-Length announces",
                body.len()
            ),
        });
    }
    Ok(Some(body))
}

/// The message a body holds, or the error response that answers it.
fn parse(body: &[u8]) -> Result<Message, Value> {
    let answer = |id: Value, code: i32, message: String| {
        serde_json::json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": code, "message": message},
        })
    };
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        answer(
            Value::Null,
            lsp_server::ErrorCode::ParseError as i32,
            format!("the message is not JSON: {e}"),
        )
    })?;
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let what = match &value {
        Value::Array(_) => "a JSON array (a batch; the language server protocol has none)",
        Value::Object(_) => "a JSON object that is no request, notification or response",
        _ => "JSON that is no object",
    };
    if !value.is_object() {
        return Err(answer(
            id,
            lsp_server::ErrorCode::InvalidRequest as i32,
            format!("the message is {what}"),
        ));
    }
    serde_json::from_value::<Message>(value).map_err(|e| {
        answer(
            id,
            lsp_server::ErrorCode::InvalidRequest as i32,
            format!("the message is {what}: {e}"),
        )
    })
}

fn write_frame(out: &mut impl Write, text: &str) -> io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Result<Option<Vec<u8>>, String>> {
        let mut reader = io::Cursor::new(input.to_vec());
        let mut out = Vec::new();
        loop {
            let next = read_frame(&mut reader).map_err(|e| e.to_string());
            let stop = !matches!(next, Ok(Some(_)));
            out.push(next);
            if stop {
                return out;
            }
        }
    }

    #[test]
    fn frames_are_delimited_by_their_length_and_bad_headers_stop_reading() {
        let two = b"Content-Length: 2\r\n\r\n{}Content-Type: x\r\ncontent-length: 1\r\n\r\n1";
        assert_eq!(
            frames(two),
            [Ok(Some(b"{}".to_vec())), Ok(Some(b"1".to_vec())), Ok(None)]
        );
        let bad = |input: &[u8]| {
            frames(input)
                .pop()
                .and_then(Result::err)
                .unwrap_or_default()
        };
        assert!(bad(b"Content-Type: x\r\n\r\n{}").contains("no Content-Length"));
        assert!(bad(b"Content-Length: 99999999999\r\n\r\n{}").contains("99999999999"));
        assert!(bad(b"Content-Length: x\r\n\r\n").contains("\"x\""));
        assert!(bad(b"Content-Length: 5\r\n\r\n{}").contains("2 of the 5 bytes"));
        assert!(bad(b"Content-Length 2\r\n\r\n{}").contains("malformed message header"));
        assert!(bad(b"Content-Length: 2\n\n{}").contains("malformed message header"));
        assert!(bad(b"Content-Length: 2\r\n").contains("in its header"));
    }

    #[test]
    fn bodies_that_are_no_message_are_answered_with_their_error_code() {
        let code = |body: &str| {
            parse(body.as_bytes())
                .err()
                .map(|a| a["error"]["code"].clone())
        };
        assert_eq!(code("{not json"), Some((-32700).into()));
        assert_eq!(code("[1, 2]"), Some((-32600).into()));
        assert_eq!(code("3"), Some((-32600).into()));
        assert_eq!(code(r#"{"jsonrpc": "2.0"}"#), Some((-32600).into()));
        let answer = parse(br#"{"id": 7, "params": 1}"#)
            .err()
            .unwrap_or_default();
        assert_eq!(answer["id"], 7);
        assert!(parse(br#"{"jsonrpc": "2.0", "method": "exit"}"#).is_ok());
    }
}
