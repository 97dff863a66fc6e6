//! Instructions in prose, steps, tables and comments become facts and flows.

use super::*;
