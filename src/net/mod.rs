//! Playing over the network, KTH DD2380's way: a blocking [`client`] that plays the engine
//! against a game server, and an asynchronous game [`server`] (tokio) that referees games
//! between clients or against a built-in player.

pub mod client;
#[cfg(feature = "server")]
pub mod server;
