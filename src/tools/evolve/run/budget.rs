//! The budgets of a run: episodes, real seconds, model calls and the
//! estimated model cost. Checked before each episode and before each model
//! call; the first limit reached stops the run (it is remembered as `hit`).

use crate::config::EvolveConfig;
use crate::error::{Error, ErrorType, Result};
use serde_json::{Value, json};
use std::time::Instant;

/// The limits of one run (flags over config).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    pub episodes: u64,
    pub seconds: f64,
    pub model_calls: u64,
    pub cost_usd: f64,
}

impl Limits {
    /// The flags, or the config's defaults; a negative or non-finite number
    /// is `invalid_args`.
    pub fn resolve(
        episodes: Option<u64>,
        seconds: Option<f64>,
        model_calls: Option<u64>,
        cost_usd: Option<f64>,
        config: &EvolveConfig,
    ) -> Result<Limits> {
        let number = |flag: &str, value: f64| -> Result<f64> {
            if value.is_finite() && value >= 0.0 {
                return Ok(value);
            }
            Err(Error::invalid_args(format!(
                "{flag} must be a number of at least 0, not {value}"
            ))
            .with_hint(format!("pass {flag} 0 or more"))
            .with_detail("flag", flag))
        };
        Ok(Limits {
            episodes: episodes.unwrap_or(config.max_episodes),
            seconds: number("--max-seconds", seconds.unwrap_or(config.max_seconds))?,
            model_calls: model_calls.unwrap_or(config.max_model_calls),
            cost_usd: number("--max-cost-usd", cost_usd.unwrap_or(config.max_cost_usd))?,
        })
    }

    pub fn to_json(self) -> Value {
        json!({
            "max_episodes": self.episodes,
            "max_seconds": self.seconds,
            "max_model_calls": self.model_calls,
            "max_cost_usd": self.cost_usd,
        })
    }
}

/// Which limit stopped the run, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// `episodes`, `seconds`, `model_calls` or `cost_usd`.
    pub limit_name: &'static str,
    pub observed: Value,
    pub limit: Value,
}

impl Hit {
    /// The `permission` error of a run stopped by this limit.
    pub fn error(&self) -> Error {
        let (flag, key) = match self.limit_name {
            "episodes" => ("--max-episodes", "max_episodes"),
            "seconds" => ("--max-seconds", "max_seconds"),
            "model_calls" => ("--max-model-calls", "max_model_calls"),
            _ => ("--max-cost-usd", "max_cost_usd"),
        };
        let (what, unit) = match self.limit_name {
            "episodes" => ("episode", "episodes"),
            "seconds" => ("time", "seconds"),
            "model_calls" => ("model-call", "model calls"),
            _ => ("cost", "US dollars"),
        };
        Error::new(
            ErrorType::Permission,
            format!(
                "evolve run stopped: its {what} budget is exhausted ({} of {} {unit}); the work done so far is kept",
                self.observed, self.limit
            ),
        )
        .with_hint(format!(
            "raise {flag} (or evolve.{key} in config.json), or run `evolve run` again to resume where this run stopped"
        ))
        .with_detail("limit_name", self.limit_name)
        .with_detail("observed", self.observed.clone())
        .with_detail("limit", self.limit.clone())
    }
}

/// Rounds a money or time figure for reports (6 decimals).
pub fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// What a run has spent, against its limits.
#[derive(Debug)]
pub struct Budget {
    pub limits: Limits,
    input_price: f64,
    output_price: f64,
    started: Instant,
    /// Episodes mined.
    pub episodes: u64,
    /// Model calls made (failed ones too).
    pub model_calls: u64,
    /// Estimated tokens (characters / 4) sent and received.
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: f64,
    /// The limit that stopped the run, once one has.
    pub hit: Option<Hit>,
}

impl Budget {
    pub fn new(limits: Limits, config: &EvolveConfig) -> Budget {
        Budget {
            limits,
            input_price: config.input_cost_per_million_usd,
            output_price: config.output_cost_per_million_usd,
            started: Instant::now(),
            episodes: 0,
            model_calls: 0,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: 0.0,
            hit: None,
        }
    }

    /// Real time since the run started, in milliseconds.
    pub fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn stop(&mut self, limit_name: &'static str, observed: Value, limit: Value) -> bool {
        if self.hit.is_none() {
            self.hit = Some(Hit {
                limit_name,
                observed,
                limit,
            });
        }
        false
    }

    fn seconds_left(&mut self) -> bool {
        let elapsed = self.started.elapsed().as_secs_f64();
        if elapsed >= self.limits.seconds {
            let (observed, limit) = (round6(elapsed), self.limits.seconds);
            return self.stop("seconds", json!(observed), json!(limit));
        }
        true
    }

    /// May the next episode be mined? Stops on the episode count, the time,
    /// or a cost already over its limit.
    pub fn before_episode(&mut self) -> bool {
        if self.hit.is_some() {
            return false;
        }
        if self.episodes >= self.limits.episodes {
            let (observed, limit) = (self.episodes, self.limits.episodes);
            return self.stop("episodes", json!(observed), json!(limit));
        }
        if self.cost_usd > self.limits.cost_usd {
            return self.cost_stop();
        }
        self.seconds_left()
    }

    fn cost_stop(&mut self) -> bool {
        let (observed, limit) = (round6(self.cost_usd), self.limits.cost_usd);
        self.stop("cost_usd", json!(observed), json!(limit))
    }

    /// May the next model call be made? Stops on the time, the call count
    /// or a cost that has reached its limit.
    pub fn before_model_call(&mut self) -> bool {
        if self.hit.is_some() {
            return false;
        }
        if !self.seconds_left() {
            return false;
        }
        if self.model_calls >= self.limits.model_calls {
            let (observed, limit) = (self.model_calls, self.limits.model_calls);
            return self.stop("model_calls", json!(observed), json!(limit));
        }
        if self.cost_usd >= self.limits.cost_usd {
            return self.cost_stop();
        }
        true
    }

    /// Counts one model call: tokens estimated as characters / 4, the cost
    /// from the configured prices. A call that takes the cost over its limit
    /// stops the run (the spend has happened; nothing more is spent).
    pub fn after_model_call(&mut self, prompt: &str, reply: &str) {
        let input = prompt.chars().count() as u64 / 4;
        let output = reply.chars().count() as u64 / 4;
        self.model_calls += 1;
        self.input_tokens += input;
        self.output_tokens += output;
        self.cost_usd +=
            (input as f64 * self.input_price + output as f64 * self.output_price) / 1e6;
        if self.cost_usd > self.limits.cost_usd {
            self.cost_stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(episodes: u64, seconds: f64, calls: u64, cost: f64) -> Budget {
        let limits = Limits {
            episodes,
            seconds,
            model_calls: calls,
            cost_usd: cost,
        };
        Budget::new(limits, &EvolveConfig::default())
    }

    #[test]
    fn episodes_stop_when_the_next_would_exceed() {
        let mut b = budget(2, 600.0, 10, 1.0);
        assert!(b.before_episode());
        b.episodes += 1;
        assert!(b.before_episode());
        b.episodes += 1;
        assert!(!b.before_episode());
        let hit = b.hit.clone().unwrap();
        assert_eq!(
            (hit.limit_name, hit.observed.clone(), hit.limit.clone()),
            ("episodes", json!(2), json!(2))
        );
        // once stopped, nothing more is allowed
        assert!(!b.before_model_call());
        let err = hit.error();
        assert_eq!(err.kind, ErrorType::Permission);
        assert_eq!(err.detail["limit_name"], "episodes");
        assert!(err.hint.contains("--max-episodes"), "{}", err.hint);
    }

    #[test]
    fn model_calls_and_cost_are_checked_before_each_call() {
        let mut b = budget(100, 600.0, 1, 1.0);
        assert!(b.before_model_call());
        b.after_model_call(&"x".repeat(4000), &"y".repeat(400));
        assert_eq!(
            (b.model_calls, b.input_tokens, b.output_tokens),
            (1, 1000, 100)
        );
        // 1000 × $3/M + 100 × $15/M
        assert!((b.cost_usd - 0.0045).abs() < 1e-12, "{}", b.cost_usd);
        assert!(!b.before_model_call());
        assert_eq!(b.hit.clone().unwrap().limit_name, "model_calls");

        let mut b = budget(100, 600.0, 10, 0.0);
        assert!(
            b.before_episode(),
            "no spend: a zero cost limit does not stop mining"
        );
        assert!(!b.before_model_call());
        assert_eq!(b.hit.clone().unwrap().limit_name, "cost_usd");

        let mut b = budget(100, 600.0, 10, 0.001);
        assert!(b.before_model_call());
        b.after_model_call(&"x".repeat(4000), "");
        let hit = b.hit.clone().unwrap();
        assert_eq!(hit.limit_name, "cost_usd");
        assert_eq!(hit.observed, json!(0.003));
        assert!(!b.before_episode());
    }

    #[test]
    fn zero_seconds_stops_at_the_first_check() {
        let mut b = budget(100, 0.0, 10, 1.0);
        assert!(!b.before_episode());
        assert_eq!(b.hit.clone().unwrap().limit_name, "seconds");
    }

    #[test]
    fn negative_or_odd_numbers_are_refused() {
        let config = EvolveConfig::default();
        let limits = Limits::resolve(None, None, None, None, &config).unwrap();
        assert_eq!(limits.episodes, 100_000);
        assert_eq!(limits.model_calls, 100);
        for (seconds, cost) in [
            (Some(-1.0), None),
            (None, Some(-0.5)),
            (Some(f64::NAN), None),
        ] {
            let err = Limits::resolve(None, seconds, None, cost, &config).unwrap_err();
            assert_eq!(err.kind, ErrorType::InvalidArgs);
        }
    }
}
