fn main() {
    std::process::exit(agentbox::cli::run());
}
