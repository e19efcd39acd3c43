# Installs the interpreter release binary on Windows (x64; Windows on Arm runs it under emulation):
#
#   irm https://github.com/openinterpreter/interpreter/releases/latest/download/install.ps1 | iex
#
# It downloads the binary and SHA256SUMS, refuses to install unless the checksum matches, moves
# the binary into place and adds the short alias i.exe next to it (a hard link, else a copy).
#
# Environment (the same variables as install.sh):
#   INTERPRETER_VERSION           release to install, such as 0.1.0 (default: the latest release)
#   INTERPRETER_INSTALL_BASE_URL  URL of the directory holding the release assets; when set,
#                                 INTERPRETER_VERSION is ignored (default: GitHub releases)
#   INTERPRETER_INSTALL_DIR       where to install (default: ~\.local\bin)
#
# Everything runs in a child scope so that `iex` leaves no functions or preferences behind.

& {
  $ErrorActionPreference = 'Stop'
  $ProgressPreference = 'SilentlyContinue'

  $ReleasesUrl = 'https://github.com/openinterpreter/interpreter/releases'
  $DefaultBaseUrl = "$ReleasesUrl/latest/download"
  $Asset = 'interpreter-windows-x64.exe'

  function Fail([string]$Message, [string]$Hint) {
    $err = New-Object System.Exception $Message
    $err.Data['hint'] = $Hint
    throw $err
  }

  function Get-Setting([string]$Name) {
    [Environment]::GetEnvironmentVariable($Name)
  }

  function Get-BaseUrl {
    $base = Get-Setting 'INTERPRETER_INSTALL_BASE_URL'
    if (-not $base) {
      $version = Get-Setting 'INTERPRETER_VERSION'
      if ($version) {
        $base = "$ReleasesUrl/download/v$($version -replace '^v', '')"
      } else {
        $base = $DefaultBaseUrl
      }
    }
    $base.TrimEnd('/')
  }

  function Test-Platform {
    if ([Environment]::OSVersion.Platform -ne 'Win32NT') {
      Fail 'This installer is for Windows' 'on Linux and macOS, run install.sh'
    }
    $arch = $env:PROCESSOR_ARCHITECTURE
    if ($env:PROCESSOR_ARCHITEW6432) { $arch = $env:PROCESSOR_ARCHITEW6432 }
    switch ($arch) {
      'AMD64' { }
      'ARM64' { Write-Host 'note: there is no arm64 build yet; installing the x64 one, which Windows emulates' }
      default { Fail "No release binary for the CPU `"$arch`"" "build from source: $ReleasesUrl" }
    }
  }

  function Invoke-Download([string]$Url, [string]$OutFile) {
    try {
      Invoke-WebRequest -UseBasicParsing -Uri $Url -OutFile $OutFile
    } catch {
      Fail "Cannot download `"$Url`": $($_.Exception.Message)" `
        "check the network and INTERPRETER_VERSION; releases are listed at $ReleasesUrl"
    }
  }

  function Get-ExpectedHash([string]$SumsFile) {
    foreach ($line in Get-Content -LiteralPath $SumsFile) {
      $parts = $line.Trim() -split '\s+', 2
      if ($parts.Count -eq 2 -and $parts[1].TrimStart('*') -eq $Asset) {
        return $parts[0].ToLowerInvariant()
      }
    }
    Fail "SHA256SUMS has no entry for `"$Asset`"; nothing was installed" `
      "the release may be incomplete; try another INTERPRETER_VERSION or report it at $ReleasesUrl"
  }

  function Get-Sha256([string]$Path) {
    (Get-FileHash -Algorithm SHA256 -LiteralPath $Path).Hash.ToLowerInvariant()
  }

  # i.exe is ours when it is missing or a copy of (or link to) the installed binary.
  function Test-AliasOwned([string]$Alias, [string]$Target) {
    if (-not (Test-Path -LiteralPath $Alias)) { return $true }
    (Test-Path -LiteralPath $Target) -and ((Get-Sha256 $Alias) -eq (Get-Sha256 $Target))
  }

  function Install-AliasFile([string]$Alias, [string]$Target) {
    try {
      if (Test-Path -LiteralPath $Alias) { Remove-Item -LiteralPath $Alias -Force }
      try {
        New-Item -ItemType HardLink -Path $Alias -Target $Target | Out-Null
      } catch {
        Copy-Item -LiteralPath $Target -Destination $Alias -Force
      }
    } catch {
      Write-Host "note: could not create the alias `"$Alias`": $($_.Exception.Message)"
    }
  }

  function Install-Interpreter {
    Test-Platform
    $baseUrl = Get-BaseUrl
    $installDir = Get-Setting 'INTERPRETER_INSTALL_DIR'
    if (-not $installDir) { $installDir = Join-Path $HOME '.local\bin' }

    [Net.ServicePointManager]::SecurityProtocol = `
      [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
    $tmpDir = Join-Path ([IO.Path]::GetTempPath()) ("interpreter-install-" + [Guid]::NewGuid())
    New-Item -ItemType Directory -Path $tmpDir | Out-Null
    $staged = $null
    try {
      Write-Host "Downloading $Asset from $baseUrl"
      $download = Join-Path $tmpDir $Asset
      $sums = Join-Path $tmpDir 'SHA256SUMS'
      Invoke-Download "$baseUrl/$Asset" $download
      Invoke-Download "$baseUrl/SHA256SUMS" $sums
      $expected = Get-ExpectedHash $sums
      $actual = Get-Sha256 $download
      if ($actual -ne $expected) {
        Fail "Checksum mismatch for `"$Asset`": expected $expected, got $actual; nothing was installed" `
          'the download is damaged or was tampered with; run this again, and report it if it persists'
      }

      New-Item -ItemType Directory -Force -Path $installDir | Out-Null
      $target = Join-Path $installDir 'interpreter.exe'
      $alias = Join-Path $installDir 'i.exe'
      $ownsAlias = Test-AliasOwned $alias $target
      $staged = Join-Path $installDir ".interpreter.$PID.tmp"
      Copy-Item -LiteralPath $download -Destination $staged -Force
      try {
        Move-Item -LiteralPath $staged -Destination $target -Force
      } catch {
        Fail "Cannot write `"$target`": $($_.Exception.Message)" `
          'close any running interpreter, or set INTERPRETER_INSTALL_DIR to a directory you can write to'
      }
      $staged = $null
      if ($ownsAlias) {
        Install-AliasFile $alias $target
      } else {
        Write-Host "note: not creating the alias `"$alias`": that file already exists"
      }

      $version = 'interpreter'
      try { $version = (& $target --version | Out-String).Trim() } catch { }
      Write-Host "Installed $version to $target (alias: i)"
      $onPath = ($env:Path -split ';') | Where-Object { $_.TrimEnd('\') -eq $installDir.TrimEnd('\') }
      if (-not $onPath) {
        Write-Host "hint: $installDir is not on your PATH; to add it for your user, run this, then open a new terminal:"
        Write-Host "  [Environment]::SetEnvironmentVariable('Path', '$installDir;' + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
      }
    } finally {
      if ($staged -and (Test-Path -LiteralPath $staged)) { Remove-Item -LiteralPath $staged -Force }
      Remove-Item -LiteralPath $tmpDir -Recurse -Force -ErrorAction SilentlyContinue
    }
  }

  # Errors end the script without closing the window when it runs through `irm ... | iex`.
  try {
    Install-Interpreter
  } catch {
    [Console]::Error.WriteLine("error: $($_.Exception.Message)")
    $hint = $_.Exception.Data['hint']
    if ($hint) { [Console]::Error.WriteLine("hint: $hint") }
    if ($PSCommandPath) { exit 1 }
    $global:LASTEXITCODE = 1
  }
}
