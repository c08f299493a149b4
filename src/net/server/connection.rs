//! A client connection: the buffered stream, framed into lines. Nothing else touches raw bytes.
//!
//! Every read has a deadline and a length cap, so a client that sends nothing, sends a line
//! without end, or vanishes without closing (a half-open connection) costs one small buffer
//! until its deadline, never more. Writes have a timeout too.

use std::net::SocketAddr;
use std::time::Duration;

use thiserror::Error;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;
use tokio::time::{timeout, timeout_at, Instant};

/// Bytes the read buffer holds: lines are short, so a small buffer is plenty.
const READ_BUFFER: usize = 1024;

/// Why no line was read (or written).
#[derive(Debug, Error)]
pub enum ConnError {
    /// The client closed the connection.
    #[error("the client disconnected")]
    Closed,
    /// Nothing (or no complete line) came before the deadline.
    #[error("no line before the deadline")]
    Timeout,
    /// The line is longer than the cap.
    #[error("a line longer than {0} bytes")]
    TooLong(usize),
    /// The line is not UTF-8 text.
    #[error("a line that is not UTF-8 text")]
    NotText,
    /// The connection failed.
    #[error("connection error: {0}")]
    Io(#[from] std::io::Error),
}

/// One client's connection.
#[derive(Debug)]
pub struct Connection {
    reader: BufReader<OwnedReadHalf>,
    writer: OwnedWriteHalf,
    peer: SocketAddr,
    max_line: usize,
    /// The listener's connection slot, given back when the connection is dropped.
    _permit: Option<OwnedSemaphorePermit>,
}

impl Connection {
    /// Wraps an accepted stream; `permit` is its slot under the connection cap.
    #[must_use]
    pub fn new(
        stream: TcpStream,
        peer: SocketAddr,
        max_line: usize,
        permit: Option<OwnedSemaphorePermit>,
    ) -> Connection {
        // Small lines both ways: do not wait to fill packets.
        let _ = stream.set_nodelay(true);
        let (read, writer) = stream.into_split();
        Connection {
            reader: BufReader::with_capacity(READ_BUFFER, read),
            writer,
            peer,
            max_line,
            _permit: permit,
        }
    }

    /// The client's address.
    #[must_use]
    pub const fn peer(&self) -> SocketAddr {
        self.peer
    }

    /// The next line, without its line end (LF, or CR-LF), read before `deadline`.
    pub async fn read_line(&mut self, deadline: Instant) -> Result<String, ConnError> {
        let max = self.max_line;
        let reader = &mut self.reader;
        let read = async move {
            let mut line = Vec::new();
            loop {
                let buf = reader.fill_buf().await?;
                if buf.is_empty() {
                    return Err(ConnError::Closed);
                }
                let (part, used, done) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (&buf[..i], i + 1, true),
                    None => (buf, buf.len(), false),
                };
                if line.len() + part.len() > max {
                    return Err(ConnError::TooLong(max));
                }
                line.extend_from_slice(part);
                reader.consume(used);
                if done {
                    break;
                }
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            String::from_utf8(line).map_err(|_| ConnError::NotText)
        };
        timeout_at(deadline, read)
            .await
            .map_err(|_| ConnError::Timeout)?
    }

    /// Waits until the client sends something or closes, which a client waiting for its game
    /// should not do; returns at once if bytes are already buffered.
    pub async fn readable_or_closed(&mut self) {
        let _ = self.reader.fill_buf().await;
    }

    /// Sends `line` and its LF within `limit`.
    pub async fn write_line(&mut self, line: &str, limit: Duration) -> Result<(), ConnError> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        timeout(limit, self.writer.write_all(&bytes))
            .await
            .map_err(|_| ConnError::Timeout)?
            .map_err(ConnError::Io)
    }

    /// Closes the sending side, so the client reads the end of the stream.
    pub async fn close(&mut self, limit: Duration) {
        let _ = timeout(limit, self.writer.shutdown()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::net::TcpListener;

    /// A connection to a loopback peer that first sends `bytes`, then stays open or closes.
    async fn pair(bytes: &'static [u8], close: bool) -> (Connection, tokio::task::JoinHandle<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let peer = tokio::spawn(async move {
            let mut s = TcpStream::connect(addr).await.unwrap();
            s.write_all(bytes).await.unwrap();
            if !close {
                tokio::time::sleep(Duration::from_secs(2)).await;
            }
        });
        let (stream, from) = listener.accept().await.unwrap();
        (Connection::new(stream, from, 16, None), peer)
    }

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(300)
    }

    #[tokio::test]
    async fn lines_are_framed_with_a_cap_and_a_deadline() {
        let (mut c, peer) = pair(b"MODE STANDALONE\r\nINIT\n0 9", true).await;
        assert_eq!(c.read_line(soon()).await.unwrap(), "MODE STANDALONE");
        assert_eq!(c.read_line(soon()).await.unwrap(), "INIT");
        // A last line without its end is not a line: the peer has gone.
        assert!(matches!(c.read_line(soon()).await, Err(ConnError::Closed)));
        peer.await.unwrap();

        let (mut c, peer) = pair(b"0123456789abcdefg\n", false).await;
        assert!(matches!(
            c.read_line(soon()).await,
            Err(ConnError::TooLong(16))
        ));
        peer.abort();

        let (mut c, peer) = pair(b"\xff\xfe\n", false).await;
        assert!(matches!(c.read_line(soon()).await, Err(ConnError::NotText)));
        peer.abort();

        // Half a line and then silence: the deadline ends the wait.
        let (mut c, peer) = pair(b"0 9 1", false).await;
        assert!(matches!(c.read_line(soon()).await, Err(ConnError::Timeout)));
        peer.abort();
    }
}
