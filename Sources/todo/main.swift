import Foundation
import TODOKit

// Everything lives in TODOKit so that tests can drive the same code with scripted input.
exit(TODOCommandLine.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    console: .standard
))
