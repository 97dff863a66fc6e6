
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'agentbox' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'agentbox'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'agentbox' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Plans with ordered steps: create, track status, pick the next step')
            [CompletionResult]::new('track', 'track', [CompletionResultType]::ParameterValue, 'Trajectories: record agent and user turns into episodes, per session')
            [CompletionResult]::new('knowledge', 'knowledge', [CompletionResultType]::ParameterValue, 'Curated notes with claims and revisions, and the user''s profile facts')
            [CompletionResult]::new('skill_forge', 'skill_forge', [CompletionResultType]::ParameterValue, 'Skills in the Agent Skills format: scaffold, draft, lint, screen, install')
            [CompletionResult]::new('evolve', 'evolve', [CompletionResultType]::ParameterValue, 'Learn from the recorded trajectories: mine episodes into proposals (skills, preferences, knowledge notes), review them, apply or reject')
            [CompletionResult]::new('persona', 'persona', [CompletionResultType]::ParameterValue, 'Named personas: who the agent is (tone, verbosity, language, free text)')
            [CompletionResult]::new('proactive', 'proactive', [CompletionResultType]::ParameterValue, 'Foresight and reminders: time-bounded items, and what to bring up before being asked')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Share the home through any git remote; install memory_mcp and skills into host agents')
            [CompletionResult]::new('memory_mcp', 'memory_mcp', [CompletionResultType]::ParameterValue, 'Serve the agent''s memory to MCP hosts (JSON-RPC over stdio, or HTTP)')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Create an agent home (.agent/) with its config, folders and tool links')
            [CompletionResult]::new('link', 'link', [CompletionResultType]::ParameterValue, 'Re-create or repair the links in .agent/tools/ (idempotent)')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'Check the home: config, folders, links, documents, search index')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search all memory at once: turns, notes, facts and whatever else the tools index')
            [CompletionResult]::new('reindex', 'reindex', [CompletionResultType]::ParameterValue, 'Rebuild the search index from the files of the home')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('model', 'model', [CompletionResultType]::ParameterValue, 'Reach the model route (an Oda runtime): check the handshake or ask one turn')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'See what your agent remembers and has learned, in the browser')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print a man page')
            break
        }
        'agentbox;plan' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a plan from a title and --step flags, or from a plan file')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a plan as a checklist (default: the most recently updated active plan)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List plans, most recently updated first')
            [CompletionResult]::new('step', 'step', [CompletionResultType]::ParameterValue, 'Set a step''s status and/or note')
            [CompletionResult]::new('add-step', 'add-step', [CompletionResultType]::ParameterValue, 'Add a step (at the end, or after step N; later steps are renumbered)')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Show the step to work on: the one in progress, else the first pending one')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a plan: it stays readable but takes no more changes')
            break
        }
        'agentbox;plan;create' {
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'A step, in order (repeat for more)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read the plan from a JSON or markdown file ("-" for stdin)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Plan id (default: derived from the title, made unique)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Include archived plans')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;step' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'New status')
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'Note for the step (an empty note clears it)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;add-step' {
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Insert after step N (0 = at the top)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;next' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'With --start: refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--start', '--start', [CompletionResultType]::ParameterName, 'Also mark that step in_progress (a mutation)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;plan;archive' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Record one turn (from flags), or a batch of messages (--messages)')
            [CompletionResult]::new('flush', 'flush', [CompletionResultType]::ParameterValue, 'Close the open episode of a session (nothing open is fine)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List episodes, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show an episode''s turns as a transcript')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search turns: ranked by relevance and recency; questions work as well as keywords')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Count sessions, episodes, turns by role and tool calls by name')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Turns per day per session over the last days, from the search index')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete closed episodes whose last turn is older than a cutoff')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import an odek.event/v1 JSONL stream: one closed episode per run')
            break
        }
        'agentbox;track;record' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session key [default: default, or the sessionKey of --messages]')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Role of the turn [default: user]')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The turn''s text')
            [CompletionResult]::new('--content-file', '--content-file', [CompletionResultType]::ParameterName, 'Read the turn''s text from a file ("-" for stdin)')
            [CompletionResult]::new('--tool-call-id', '--tool-call-id', [CompletionResultType]::ParameterName, 'The tool call this turn answers (role tool)')
            [CompletionResult]::new('--messages', '--messages', [CompletionResultType]::ParameterName, 'Read messages[] JSON from a file ("-" for stdin)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'When the turn was said (RFC 3339) [default: now]; with --messages, the time of messages without a timestamp')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--flush', '--flush', [CompletionResultType]::ParameterName, 'Close the episode after saving')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track;flush' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session key')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track;list' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only this session''s episodes')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N episodes (0: all)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the N newest episodes first (pages: --limit 20 --offset 40 is the third)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track;show' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'This home''s open (else the latest) episode of this session')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track;search' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only documents of this session (turns carry one)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only documents with this tag (a note''s tag, a turn''s role or tool, a fact''s section)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only documents dated on or before DATE (a plain date covers the whole day)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most hits to return (1–50)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Say why each hit ranked where it did: its words'' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query''s names weighed')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track;stats' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only this session')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track;activity' {
            [CompletionResult]::new('--days', '--days', [CompletionResultType]::ParameterName, 'How many days, ending today (UTC), 1-366')
            [CompletionResult]::new('--sessions', '--sessions', [CompletionResultType]::ParameterName, 'Show the N busiest sessions of the window, sum the rest, 1-100')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track;prune' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'A duration back from now (90m, 12h, 30d, 2w) or a date/time (2026-01-01, RFC 3339)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only this session')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Report what would be removed, remove nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;track;import' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Store every run in this session [default: the stream''s session_id, else odek-<run id prefix>]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a note (rev 1)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a note: metadata, claims and body')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List notes, most recently updated first')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a note (rev + 1). --expect-version is required: edits replace what you read')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Delete a note')
            [CompletionResult]::new('link', 'link', [CompletionResultType]::ParameterValue, 'Link a note to another (or --unlink), rev + 1 when that changes anything')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search notes: keywords or a natural-language question, best match first')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check the notes: unreadable files, broken links, duplicates, contradicting claims')
            [CompletionResult]::new('profile', 'profile', [CompletionResultType]::ParameterValue, 'The user''s profile facts (memory/personal/PROFILE.md)')
            break
        }
        'agentbox;knowledge;add' {
            [CompletionResult]::new('--body', '--body', [CompletionResultType]::ParameterName, 'Note body (markdown)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read the body from a file ("-" for stdin)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A tag (repeat for more)')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'A source: URL, path or citation (repeat for more)')
            [CompletionResult]::new('--link', '--link', [CompletionResultType]::ParameterName, 'Link to another note by slug (repeat for more)')
            [CompletionResult]::new('--claim', '--claim', [CompletionResultType]::ParameterName, 'A claim KEY=VALUE, like go.formatter=gofmt (repeat for more)')
            [CompletionResult]::new('--slug', '--slug', [CompletionResultType]::ParameterName, 'Slug (default: derived from the title, made unique)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--supersede', '--supersede', [CompletionResultType]::ParameterName, 'Take contradicting claims out of the other notes instead of failing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;list' {
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only notes with this tag')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N notes (0: all)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the N most recently updated notes first (pages: --limit 50 --offset 50 is the second)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;edit' {
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'New title')
            [CompletionResult]::new('--body', '--body', [CompletionResultType]::ParameterName, 'New body (replaces the old one)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read the new body from a file ("-" for stdin)')
            [CompletionResult]::new('--add-tag', '--add-tag', [CompletionResultType]::ParameterName, 'Add a tag (repeat for more)')
            [CompletionResult]::new('--rm-tag', '--rm-tag', [CompletionResultType]::ParameterName, 'Remove a tag (repeat for more)')
            [CompletionResult]::new('--add-source', '--add-source', [CompletionResultType]::ParameterName, 'Add a source (repeat for more)')
            [CompletionResult]::new('--rm-source', '--rm-source', [CompletionResultType]::ParameterName, 'Remove a source (repeat for more)')
            [CompletionResult]::new('--claim', '--claim', [CompletionResultType]::ParameterName, 'Set a claim KEY=VALUE (adds it, or replaces this note''s value)')
            [CompletionResult]::new('--rm-claim', '--rm-claim', [CompletionResultType]::ParameterName, 'Remove a claim by key (repeat for more)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the note is at this rev (required; without it the error names the note''s current rev)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--supersede', '--supersede', [CompletionResultType]::ParameterName, 'Take contradicting claims out of the other notes instead of failing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;rm' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse unless the note is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;link' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse unless the note is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--unlink', '--unlink', [CompletionResultType]::ParameterName, 'Remove the link instead (works for links to missing notes too)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;search' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only documents of this session (turns carry one)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only documents with this tag (a note''s tag, a turn''s role or tool, a fact''s section)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only documents dated on or before DATE (a plain date covers the whole day)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most hits to return (1–50)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Say why each hit ranked where it did: its words'' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query''s names weighed')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;lint' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail (conflict, exit 1) when there is any finding')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;profile' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a fact (under ## Facts) or a preference (under ## Preferences)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the facts, numbered within each section')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove a fact by number (needs --section) or by its text')
            break
        }
        'agentbox;knowledge;profile;add' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--preference', '--preference', [CompletionResultType]::ParameterName, 'File it under ## Preferences (default: ## Facts)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;profile;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;knowledge;profile;rm' {
            [CompletionResult]::new('--section', '--section', [CompletionResultType]::ParameterName, 'The section: required with a number; with a text, only look there')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;skill_forge' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Scaffold a new skill (unscreened until `screen`)')
            [CompletionResult]::new('from-episode', 'from-episode', [CompletionResultType]::ParameterValue, 'Draft a skill from a recorded episode, screen it and add it')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check skills against the Agent Skills specification')
            [CompletionResult]::new('screen', 'screen', [CompletionResultType]::ParameterValue, 'Screen every file of a skill for malicious behaviour')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Copy a skill folder into the home after screening it')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the skills of the home with their screening status')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a skill: front matter, body, files, status, and the hash its verdict was given for')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove a skill and its screening record')
            break
        }
        'agentbox;skill_forge;new' {
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'What the skill does and when to use it (1-1024 characters)')
            [CompletionResult]::new('--body', '--body', [CompletionResultType]::ParameterName, 'Read the markdown body from a file ("-" for stdin)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;skill_forge;from-episode' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Skill name (default: derived from the request)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Add the draft even when its screen warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;skill_forge;lint' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail (conflict, exit 1) when there is any finding')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;skill_forge;screen' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 1 (permission) when the verdict is fail')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Record a `warn` verdict as accepted (skills of the home only)')
            [CompletionResult]::new('--deep', '--deep', [CompletionResultType]::ParameterName, 'Also ask the model route for a judgement (it can only raise the verdict)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;skill_forge;install' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Install under this name (default: the front matter''s name)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Install even when the screen warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;skill_forge;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;skill_forge;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--findings', '--findings', [CompletionResultType]::ParameterName, 'Also screen the files as they are now and list the findings (records nothing)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;skill_forge;rm' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;evolve' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Mine the episodes not yet mined into proposals')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List proposals, newest run first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a run (its id) or a proposal (its p-… id) in full')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply proposals: install the skill, add the preference to PROFILE.md, or write the knowledge note')
            [CompletionResult]::new('reject', 'reject', [CompletionResultType]::ParameterValue, 'Reject proposals (they are never proposed again)')
            break
        }
        'agentbox;evolve;run' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Mine episodes started on or after DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default: after the high-water mark)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Mine only these sessions (repeatable)')
            [CompletionResult]::new('--max-episodes', '--max-episodes', [CompletionResultType]::ParameterName, 'Stop after mining N episodes (default: config evolve.max_episodes)')
            [CompletionResult]::new('--max-seconds', '--max-seconds', [CompletionResultType]::ParameterName, 'Stop after S seconds (default: config evolve.max_seconds)')
            [CompletionResult]::new('--max-model-calls', '--max-model-calls', [CompletionResultType]::ParameterName, 'Stop after N model calls (default: config evolve.max_model_calls)')
            [CompletionResult]::new('--max-cost-usd', '--max-cost-usd', [CompletionResultType]::ParameterName, 'Stop when the estimated model cost reaches X US dollars (default: config evolve.max_cost_usd)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Mine and report, but write nothing (no run folder, no state)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;evolve;list' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only proposals with this status')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N proposals (a page; meta.matched says how many there are)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the first N proposals (with --limit: the next page)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;evolve;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;evolve;apply' {
            [CompletionResult]::new('--expect-plan', '--expect-plan', [CompletionResultType]::ParameterName, 'Refuse (conflict) unless the proposals and the files they write are as the `--dry-run` that printed this fingerprint saw them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Apply a skill, preference or note whose screen verdict is `warn`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check the proposals and show exactly what applying them would write (a diff per file) and the plan''s fingerprint; write nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;evolve;reject' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why (kept with the proposal)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the personas (* marks the active one)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a persona: traits, body, rev (default: the active one)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a persona (the first one becomes active)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set traits (and the text) of a persona: one new revision')
            [CompletionResult]::new('unset', 'unset', [CompletionResultType]::ParameterValue, 'Remove traits of a persona: one new revision')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a persona the active one (persona/ACTIVE)')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print the markdown block to splice into a system prompt')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'List the revisions of a persona, newest first')
            [CompletionResult]::new('revert', 'revert', [CompletionResultType]::ParameterValue, 'Restore an earlier revision''s traits and text, as a new revision')
            break
        }
        'agentbox;persona;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona;create' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start from another persona''s traits and text')
            [CompletionResult]::new('--trait', '--trait', [CompletionResultType]::ParameterName, 'A trait, KEY=VALUE (repeatable): tone, verbosity, language or any key')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Read the free-text body from a file ("-" for stdin)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Write it even when the screen of the persona''s text warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona;set' {
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Replace the free-text body with a file''s ("-" for stdin)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse (conflict) unless the persona is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Write it even when the screen of the persona''s text warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona;unset' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse (conflict) unless the persona is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Write it even when the screen of the persona''s text warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona;use' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona;render' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona;history' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;persona;revert' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse (conflict) unless the persona is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Write it even when the screen of the persona''s text warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;proactive' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an item')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List items: open and snoozed ones (not expired, dismissed or done)')
            [CompletionResult]::new('due', 'due', [CompletionResultType]::ParameterValue, 'Items to act on: due soon, or valid without a due time')
            [CompletionResult]::new('dismiss', 'dismiss', [CompletionResultType]::ParameterValue, 'Dismiss items: not needed after all (they are never shown again)')
            [CompletionResult]::new('done', 'done', [CompletionResultType]::ParameterValue, 'Mark items done (they are never shown again)')
            [CompletionResult]::new('snooze', 'snooze', [CompletionResultType]::ParameterValue, 'Hide an item until WHEN; it comes back then')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Suggestions from the home, each with the command that resolves it')
            [CompletionResult]::new('extract', 'extract', [CompletionResultType]::ParameterValue, 'Foresight from recent episodes: commitments and deadlines become items')
            break
        }
        'agentbox;proactive;add' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'When the item becomes valid (default: now)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'When it stops being valid (default: --due, else 7 days after --from)')
            [CompletionResult]::new('--due', '--due', [CompletionResultType]::ParameterName, 'When it is due')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A tag (repeat for more)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;proactive;list' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N items (a page; meta.matched says how many there are)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the first N items (with --limit: the next page)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every item, whatever its state')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;proactive;due' {
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'The instant to look from (default: now)')
            [CompletionResult]::new('--within', '--within', [CompletionResultType]::ParameterName, 'How far ahead: N and a unit, m h d or w (default: 1d)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;proactive;dismiss' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;proactive;done' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;proactive;snooze' {
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'When the item comes back')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;proactive;scan' {
            [CompletionResult]::new('--stale-days', '--stale-days', [CompletionResultType]::ParameterName, 'An in-progress plan step untouched this many days is stale (default: config proactive.stale_days, 3)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;proactive;extract' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Episodes since DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default: after the last extraction)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only these sessions (repeatable)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Start keeping the home''s history (and take the remote''s, when it has one)')
            [CompletionResult]::new('remote', 'remote', [CompletionResultType]::ParameterValue, 'Show, set or remove the remote')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'What is unsynced: commits ahead/behind the remote, changed files')
            [CompletionResult]::new('pull', 'pull', [CompletionResultType]::ParameterValue, 'Take the remote''s changes into the home (commits local changes first)')
            [CompletionResult]::new('push', 'push', [CompletionResultType]::ParameterValue, 'Send the home''s changes to the remote (integrating the remote''s first)')
            [CompletionResult]::new('now', 'now', [CompletionResultType]::ParameterValue, 'Pull, then push: the one command to run after a session')
            [CompletionResult]::new('abort', 'abort', [CompletionResultType]::ParameterValue, 'Drop a pull that stopped part-way and keeps failing to finish')
            [CompletionResult]::new('hosts', 'hosts', [CompletionResultType]::ParameterValue, 'Detect host agents; install or remove memory_mcp and the screened skills')
            break
        }
        'agentbox;sync;init' {
            [CompletionResult]::new('--remote', '--remote', [CompletionResultType]::ParameterName, 'The remote to sync with (https:// or file://; credentials come from git credential helpers or GIT_ASKPASS, never from the URL)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;remote' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the remote (the default)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set the remote')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Forget the remote (the history stays)')
            break
        }
        'agentbox;sync;remote;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;remote;set' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;remote;rm' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;status' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;pull' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;push' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;now' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;abort' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;hosts' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'Write a host''s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the hosts, what is detected and what is installed (the default)')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Register memory_mcp in each host''s config and export the screened skills')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove what agentbox wrote (and only that) from each host')
            break
        }
        'agentbox;sync;hosts;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'Write a host''s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;hosts;install' {
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'project: the config files beside the home (the default); user: under $HOME')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Register the memory_mcp --http the user keeps running at URL (e.g. http://127.0.0.1:7411/mcp) instead of a command the host starts; not for zed or odek')
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'With --url: the environment variable the host reads the bearer token from when it connects (default AGENTBOX_MCP_TOKEN); the token itself is never written')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every detected host')
            [CompletionResult]::new('--no-skills', '--no-skills', [CompletionResultType]::ParameterName, 'Register memory_mcp only; export no skills')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'Write a host''s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;sync;hosts;remove' {
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Only this scope (default: every scope agentbox installed into)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every host agentbox installed into')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'Write a host''s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;memory_mcp' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve Streamable HTTP at ADDR (HOST:PORT) instead of stdio')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Make the bearer token --http requires (kept in the home, never printed)')
            break
        }
        'agentbox;memory_mcp;token' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--new', '--new', [CompletionResultType]::ParameterName, 'Replace the existing token (clients holding the old one are refused)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;init' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--nested', '--nested', [CompletionResultType]::ParameterName, 'Create the home even though a folder above already has one: commands run in this folder then use the new home, not the one above')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;link' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;doctor' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;search' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only documents of this session (turns carry one)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only documents with this tag (a note''s tag, a turn''s role or tool, a fact''s section)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only documents dated on or before DATE (a plain date covers the whole day)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most hits to return (1–50)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only this kind (repeat for several; default: all)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Say why each hit ranked where it did: its words'' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query''s names weighed')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;reindex' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;completions' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;model' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Start the runtime, initialize the route, shut down: does the route work?')
            [CompletionResult]::new('ask', 'ask', [CompletionResultType]::ParameterValue, 'Ask one turn and print the answer')
            break
        }
        'agentbox;model;check' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;model;ask' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session to prompt (a new one when left out); reuse the sessionId of an earlier answer to continue it')
            [CompletionResult]::new('--image', '--image', [CompletionResultType]::ParameterName, 'Attach an image: png, jpeg, webp or gif (repeat for more)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;view' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Listen on this port (default: a free one)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--open', '--open', [CompletionResultType]::ParameterName, 'Open the URL in the default browser')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'agentbox;man' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'List the page names instead (one per line in text; data.pages in json)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'plan' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'plan'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'plan' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a plan from a title and --step flags, or from a plan file')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a plan as a checklist (default: the most recently updated active plan)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List plans, most recently updated first')
            [CompletionResult]::new('step', 'step', [CompletionResultType]::ParameterValue, 'Set a step''s status and/or note')
            [CompletionResult]::new('add-step', 'add-step', [CompletionResultType]::ParameterValue, 'Add a step (at the end, or after step N; later steps are renumbered)')
            [CompletionResult]::new('next', 'next', [CompletionResultType]::ParameterValue, 'Show the step to work on: the one in progress, else the first pending one')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Archive a plan: it stays readable but takes no more changes')
            break
        }
        'plan;create' {
            [CompletionResult]::new('--step', '--step', [CompletionResultType]::ParameterName, 'A step, in order (repeat for more)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read the plan from a JSON or markdown file ("-" for stdin)')
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Plan id (default: derived from the title, made unique)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plan;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plan;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Include archived plans')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plan;step' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'New status')
            [CompletionResult]::new('--note', '--note', [CompletionResultType]::ParameterName, 'Note for the step (an empty note clears it)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plan;add-step' {
            [CompletionResult]::new('--after', '--after', [CompletionResultType]::ParameterName, 'Insert after step N (0 = at the top)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plan;next' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'With --start: refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--start', '--start', [CompletionResultType]::ParameterName, 'Also mark that step in_progress (a mutation)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'plan;archive' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the plan is at this version')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'track' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'track'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'track' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('record', 'record', [CompletionResultType]::ParameterValue, 'Record one turn (from flags), or a batch of messages (--messages)')
            [CompletionResult]::new('flush', 'flush', [CompletionResultType]::ParameterValue, 'Close the open episode of a session (nothing open is fine)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List episodes, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show an episode''s turns as a transcript')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search turns: ranked by relevance and recency; questions work as well as keywords')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Count sessions, episodes, turns by role and tool calls by name')
            [CompletionResult]::new('activity', 'activity', [CompletionResultType]::ParameterValue, 'Turns per day per session over the last days, from the search index')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete closed episodes whose last turn is older than a cutoff')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Import an odek.event/v1 JSONL stream: one closed episode per run')
            break
        }
        'track;record' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session key [default: default, or the sessionKey of --messages]')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Role of the turn [default: user]')
            [CompletionResult]::new('--content', '--content', [CompletionResultType]::ParameterName, 'The turn''s text')
            [CompletionResult]::new('--content-file', '--content-file', [CompletionResultType]::ParameterName, 'Read the turn''s text from a file ("-" for stdin)')
            [CompletionResult]::new('--tool-call-id', '--tool-call-id', [CompletionResultType]::ParameterName, 'The tool call this turn answers (role tool)')
            [CompletionResult]::new('--messages', '--messages', [CompletionResultType]::ParameterName, 'Read messages[] JSON from a file ("-" for stdin)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'When the turn was said (RFC 3339) [default: now]; with --messages, the time of messages without a timestamp')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--flush', '--flush', [CompletionResultType]::ParameterName, 'Close the episode after saving')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'track;flush' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Session key')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'track;list' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only this session''s episodes')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N episodes (0: all)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the N newest episodes first (pages: --limit 20 --offset 40 is the third)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'track;show' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'This home''s open (else the latest) episode of this session')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'track;search' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only documents of this session (turns carry one)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only documents with this tag (a note''s tag, a turn''s role or tool, a fact''s section)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only documents dated on or before DATE (a plain date covers the whole day)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most hits to return (1–50)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Say why each hit ranked where it did: its words'' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query''s names weighed')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'track;stats' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only this session')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'track;activity' {
            [CompletionResult]::new('--days', '--days', [CompletionResultType]::ParameterName, 'How many days, ending today (UTC), 1-366')
            [CompletionResult]::new('--sessions', '--sessions', [CompletionResultType]::ParameterName, 'Show the N busiest sessions of the window, sum the rest, 1-100')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'track;prune' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'A duration back from now (90m, 12h, 30d, 2w) or a date/time (2026-01-01, RFC 3339)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only this session')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Report what would be removed, remove nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'track;import' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Store every run in this session [default: the stream''s session_id, else odek-<run id prefix>]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'knowledge' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'knowledge'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'knowledge' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a note (rev 1)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a note: metadata, claims and body')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List notes, most recently updated first')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Change a note (rev + 1). --expect-version is required: edits replace what you read')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Delete a note')
            [CompletionResult]::new('link', 'link', [CompletionResultType]::ParameterValue, 'Link a note to another (or --unlink), rev + 1 when that changes anything')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search notes: keywords or a natural-language question, best match first')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check the notes: unreadable files, broken links, duplicates, contradicting claims')
            [CompletionResult]::new('profile', 'profile', [CompletionResultType]::ParameterValue, 'The user''s profile facts (memory/personal/PROFILE.md)')
            break
        }
        'knowledge;add' {
            [CompletionResult]::new('--body', '--body', [CompletionResultType]::ParameterName, 'Note body (markdown)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read the body from a file ("-" for stdin)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A tag (repeat for more)')
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'A source: URL, path or citation (repeat for more)')
            [CompletionResult]::new('--link', '--link', [CompletionResultType]::ParameterName, 'Link to another note by slug (repeat for more)')
            [CompletionResult]::new('--claim', '--claim', [CompletionResultType]::ParameterName, 'A claim KEY=VALUE, like go.formatter=gofmt (repeat for more)')
            [CompletionResult]::new('--slug', '--slug', [CompletionResultType]::ParameterName, 'Slug (default: derived from the title, made unique)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--supersede', '--supersede', [CompletionResultType]::ParameterName, 'Take contradicting claims out of the other notes instead of failing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;list' {
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only notes with this tag')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N notes (0: all)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the N most recently updated notes first (pages: --limit 50 --offset 50 is the second)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;edit' {
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'New title')
            [CompletionResult]::new('--body', '--body', [CompletionResultType]::ParameterName, 'New body (replaces the old one)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'Read the new body from a file ("-" for stdin)')
            [CompletionResult]::new('--add-tag', '--add-tag', [CompletionResultType]::ParameterName, 'Add a tag (repeat for more)')
            [CompletionResult]::new('--rm-tag', '--rm-tag', [CompletionResultType]::ParameterName, 'Remove a tag (repeat for more)')
            [CompletionResult]::new('--add-source', '--add-source', [CompletionResultType]::ParameterName, 'Add a source (repeat for more)')
            [CompletionResult]::new('--rm-source', '--rm-source', [CompletionResultType]::ParameterName, 'Remove a source (repeat for more)')
            [CompletionResult]::new('--claim', '--claim', [CompletionResultType]::ParameterName, 'Set a claim KEY=VALUE (adds it, or replaces this note''s value)')
            [CompletionResult]::new('--rm-claim', '--rm-claim', [CompletionResultType]::ParameterName, 'Remove a claim by key (repeat for more)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse the write unless the note is at this rev (required; without it the error names the note''s current rev)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--supersede', '--supersede', [CompletionResultType]::ParameterName, 'Take contradicting claims out of the other notes instead of failing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;rm' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse unless the note is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;link' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse unless the note is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--unlink', '--unlink', [CompletionResultType]::ParameterName, 'Remove the link instead (works for links to missing notes too)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;search' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only documents of this session (turns carry one)')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'Only documents with this tag (a note''s tag, a turn''s role or tool, a fact''s section)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only documents dated on or after DATE (RFC 3339, or a date like 2026-01-31)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only documents dated on or before DATE (a plain date covers the whole day)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most hits to return (1–50)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--explain', '--explain', [CompletionResultType]::ParameterName, 'Say why each hit ranked where it did: its words'' BM25, with the turns around it, and each factor (asks, dated in the named time, says when, kind, recency); and what the query''s names weighed')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;lint' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail (conflict, exit 1) when there is any finding')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;profile' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add a fact (under ## Facts) or a preference (under ## Preferences)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the facts, numbered within each section')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove a fact by number (needs --section) or by its text')
            break
        }
        'knowledge;profile;add' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--preference', '--preference', [CompletionResultType]::ParameterName, 'File it under ## Preferences (default: ## Facts)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;profile;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'knowledge;profile;rm' {
            [CompletionResult]::new('--section', '--section', [CompletionResultType]::ParameterName, 'The section: required with a number; with a text, only look there')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'skill_forge' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'skill_forge'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'skill_forge' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('new', 'new', [CompletionResultType]::ParameterValue, 'Scaffold a new skill (unscreened until `screen`)')
            [CompletionResult]::new('from-episode', 'from-episode', [CompletionResultType]::ParameterValue, 'Draft a skill from a recorded episode, screen it and add it')
            [CompletionResult]::new('lint', 'lint', [CompletionResultType]::ParameterValue, 'Check skills against the Agent Skills specification')
            [CompletionResult]::new('screen', 'screen', [CompletionResultType]::ParameterValue, 'Screen every file of a skill for malicious behaviour')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Copy a skill folder into the home after screening it')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the skills of the home with their screening status')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a skill: front matter, body, files, status, and the hash its verdict was given for')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove a skill and its screening record')
            break
        }
        'skill_forge;new' {
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'What the skill does and when to use it (1-1024 characters)')
            [CompletionResult]::new('--body', '--body', [CompletionResultType]::ParameterName, 'Read the markdown body from a file ("-" for stdin)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skill_forge;from-episode' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Skill name (default: derived from the request)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Add the draft even when its screen warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skill_forge;lint' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Fail (conflict, exit 1) when there is any finding')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skill_forge;screen' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Exit 1 (permission) when the verdict is fail')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Record a `warn` verdict as accepted (skills of the home only)')
            [CompletionResult]::new('--deep', '--deep', [CompletionResultType]::ParameterName, 'Also ask the model route for a judgement (it can only raise the verdict)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skill_forge;install' {
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, 'Install under this name (default: the front matter''s name)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Install even when the screen warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skill_forge;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skill_forge;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--findings', '--findings', [CompletionResultType]::ParameterName, 'Also screen the files as they are now and list the findings (records nothing)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'skill_forge;rm' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'evolve' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'evolve'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'evolve' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('run', 'run', [CompletionResultType]::ParameterValue, 'Mine the episodes not yet mined into proposals')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List proposals, newest run first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a run (its id) or a proposal (its p-… id) in full')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Apply proposals: install the skill, add the preference to PROFILE.md, or write the knowledge note')
            [CompletionResult]::new('reject', 'reject', [CompletionResultType]::ParameterValue, 'Reject proposals (they are never proposed again)')
            break
        }
        'evolve;run' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Mine episodes started on or after DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default: after the high-water mark)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Mine only these sessions (repeatable)')
            [CompletionResult]::new('--max-episodes', '--max-episodes', [CompletionResultType]::ParameterName, 'Stop after mining N episodes (default: config evolve.max_episodes)')
            [CompletionResult]::new('--max-seconds', '--max-seconds', [CompletionResultType]::ParameterName, 'Stop after S seconds (default: config evolve.max_seconds)')
            [CompletionResult]::new('--max-model-calls', '--max-model-calls', [CompletionResultType]::ParameterName, 'Stop after N model calls (default: config evolve.max_model_calls)')
            [CompletionResult]::new('--max-cost-usd', '--max-cost-usd', [CompletionResultType]::ParameterName, 'Stop when the estimated model cost reaches X US dollars (default: config evolve.max_cost_usd)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Mine and report, but write nothing (no run folder, no state)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'evolve;list' {
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only proposals with this status')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N proposals (a page; meta.matched says how many there are)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the first N proposals (with --limit: the next page)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'evolve;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'evolve;apply' {
            [CompletionResult]::new('--expect-plan', '--expect-plan', [CompletionResultType]::ParameterName, 'Refuse (conflict) unless the proposals and the files they write are as the `--dry-run` that printed this fingerprint saw them')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Apply a skill, preference or note whose screen verdict is `warn`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Check the proposals and show exactly what applying them would write (a diff per file) and the plan''s fingerprint; write nothing')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'evolve;reject' {
            [CompletionResult]::new('--reason', '--reason', [CompletionResultType]::ParameterName, 'Why (kept with the proposal)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'persona' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'persona'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'persona' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the personas (* marks the active one)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a persona: traits, body, rev (default: the active one)')
            [CompletionResult]::new('create', 'create', [CompletionResultType]::ParameterValue, 'Create a persona (the first one becomes active)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set traits (and the text) of a persona: one new revision')
            [CompletionResult]::new('unset', 'unset', [CompletionResultType]::ParameterValue, 'Remove traits of a persona: one new revision')
            [CompletionResult]::new('use', 'use', [CompletionResultType]::ParameterValue, 'Make a persona the active one (persona/ACTIVE)')
            [CompletionResult]::new('render', 'render', [CompletionResultType]::ParameterValue, 'Print the markdown block to splice into a system prompt')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'List the revisions of a persona, newest first')
            [CompletionResult]::new('revert', 'revert', [CompletionResultType]::ParameterValue, 'Restore an earlier revision''s traits and text, as a new revision')
            break
        }
        'persona;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'persona;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'persona;create' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Start from another persona''s traits and text')
            [CompletionResult]::new('--trait', '--trait', [CompletionResultType]::ParameterName, 'A trait, KEY=VALUE (repeatable): tone, verbosity, language or any key')
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Read the free-text body from a file ("-" for stdin)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Write it even when the screen of the persona''s text warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'persona;set' {
            [CompletionResult]::new('--text', '--text', [CompletionResultType]::ParameterName, 'Replace the free-text body with a file''s ("-" for stdin)')
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse (conflict) unless the persona is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Write it even when the screen of the persona''s text warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'persona;unset' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse (conflict) unless the persona is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Write it even when the screen of the persona''s text warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'persona;use' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'persona;render' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'persona;history' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'persona;revert' {
            [CompletionResult]::new('--expect-version', '--expect-version', [CompletionResultType]::ParameterName, 'Refuse (conflict) unless the persona is at this rev')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--accept-warnings', '--accept-warnings', [CompletionResultType]::ParameterName, 'Write it even when the screen of the persona''s text warns')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'proactive' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'proactive'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'proactive' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Add an item')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List items: open and snoozed ones (not expired, dismissed or done)')
            [CompletionResult]::new('due', 'due', [CompletionResultType]::ParameterValue, 'Items to act on: due soon, or valid without a due time')
            [CompletionResult]::new('dismiss', 'dismiss', [CompletionResultType]::ParameterValue, 'Dismiss items: not needed after all (they are never shown again)')
            [CompletionResult]::new('done', 'done', [CompletionResultType]::ParameterValue, 'Mark items done (they are never shown again)')
            [CompletionResult]::new('snooze', 'snooze', [CompletionResultType]::ParameterValue, 'Hide an item until WHEN; it comes back then')
            [CompletionResult]::new('scan', 'scan', [CompletionResultType]::ParameterValue, 'Suggestions from the home, each with the command that resolves it')
            [CompletionResult]::new('extract', 'extract', [CompletionResultType]::ParameterValue, 'Foresight from recent episodes: commitments and deadlines become items')
            break
        }
        'proactive;add' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'When the item becomes valid (default: now)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'When it stops being valid (default: --due, else 7 days after --from)')
            [CompletionResult]::new('--due', '--due', [CompletionResultType]::ParameterName, 'When it is due')
            [CompletionResult]::new('--tag', '--tag', [CompletionResultType]::ParameterName, 'A tag (repeat for more)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'proactive;list' {
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most N items (a page; meta.matched says how many there are)')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip the first N items (with --limit: the next page)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every item, whatever its state')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'proactive;due' {
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'The instant to look from (default: now)')
            [CompletionResult]::new('--within', '--within', [CompletionResultType]::ParameterName, 'How far ahead: N and a unit, m h d or w (default: 1d)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'proactive;dismiss' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'proactive;done' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'proactive;snooze' {
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'When the item comes back')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'proactive;scan' {
            [CompletionResult]::new('--stale-days', '--stale-days', [CompletionResultType]::ParameterName, 'An in-progress plan step untouched this many days is stale (default: config proactive.stale_days, 3)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'proactive;extract' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Episodes since DATE (RFC 3339 or YYYY-MM-DD), or `last` (the default: after the last extraction)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only these sessions (repeatable)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'sync' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'sync'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'sync' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Start keeping the home''s history (and take the remote''s, when it has one)')
            [CompletionResult]::new('remote', 'remote', [CompletionResultType]::ParameterValue, 'Show, set or remove the remote')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'What is unsynced: commits ahead/behind the remote, changed files')
            [CompletionResult]::new('pull', 'pull', [CompletionResultType]::ParameterValue, 'Take the remote''s changes into the home (commits local changes first)')
            [CompletionResult]::new('push', 'push', [CompletionResultType]::ParameterValue, 'Send the home''s changes to the remote (integrating the remote''s first)')
            [CompletionResult]::new('now', 'now', [CompletionResultType]::ParameterValue, 'Pull, then push: the one command to run after a session')
            [CompletionResult]::new('abort', 'abort', [CompletionResultType]::ParameterValue, 'Drop a pull that stopped part-way and keeps failing to finish')
            [CompletionResult]::new('hosts', 'hosts', [CompletionResultType]::ParameterValue, 'Detect host agents; install or remove memory_mcp and the screened skills')
            break
        }
        'sync;init' {
            [CompletionResult]::new('--remote', '--remote', [CompletionResultType]::ParameterName, 'The remote to sync with (https:// or file://; credentials come from git credential helpers or GIT_ASKPASS, never from the URL)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;remote' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show the remote (the default)')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set the remote')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Forget the remote (the history stays)')
            break
        }
        'sync;remote;show' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;remote;set' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;remote;rm' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;status' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;pull' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;push' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;now' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;abort' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;hosts' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'Write a host''s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the hosts, what is detected and what is installed (the default)')
            [CompletionResult]::new('install', 'install', [CompletionResultType]::ParameterValue, 'Register memory_mcp in each host''s config and export the screened skills')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove what agentbox wrote (and only that) from each host')
            break
        }
        'sync;hosts;list' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'Write a host''s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;hosts;install' {
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'project: the config files beside the home (the default); user: under $HOME')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Register the memory_mcp --http the user keeps running at URL (e.g. http://127.0.0.1:7411/mcp) instead of a command the host starts; not for zed or odek')
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'With --url: the environment variable the host reads the bearer token from when it connects (default AGENTBOX_MCP_TOKEN); the token itself is never written')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every detected host')
            [CompletionResult]::new('--no-skills', '--no-skills', [CompletionResultType]::ParameterName, 'Register memory_mcp only; export no skills')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'Write a host''s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'sync;hosts;remove' {
            [CompletionResult]::new('--scope', '--scope', [CompletionResultType]::ParameterName, 'Only this scope (default: every scope agentbox installed into)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every host agentbox installed into')
            [CompletionResult]::new('--follow-symlinks', '--follow-symlinks', [CompletionResultType]::ParameterName, 'Write a host''s config file or skills folder through a symlink (kept in a dotfiles repository) at its target; without it a symlink there is `permission`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}

using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'memory_mcp' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'memory_mcp'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'memory_mcp' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve Streamable HTTP at ADDR (HOST:PORT) instead of stdio')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('token', 'token', [CompletionResultType]::ParameterValue, 'Make the bearer token --http requires (kept in the home, never printed)')
            break
        }
        'memory_mcp;token' {
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format: json envelope, text prose, or auto (text on a terminal) [env: AGENTBOX_FORMAT]')
            [CompletionResult]::new('--home', '--home', [CompletionResultType]::ParameterName, 'The agent home to use (default: the link''s home, else the nearest .agent/) [env: AGENTBOX_HOME]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour text output: auto respects NO_COLOR and terminals')
            [CompletionResult]::new('--new', '--new', [CompletionResultType]::ParameterName, 'Replace the existing token (clients holding the old one are refused)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing on success in text mode (json still prints its envelope)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log what happens to stderr')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
