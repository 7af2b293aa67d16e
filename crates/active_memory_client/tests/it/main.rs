//! Integration tests of the facade, as one test binary.

mod agent_tools;
mod client;
mod families;
mod guard;
mod import;
mod lifecycle;
mod material;
mod mcp_names;
mod sarah;
mod unreadable;
