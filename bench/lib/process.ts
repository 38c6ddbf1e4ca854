import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** This checkout: the project the benchmark runs from (with a trailing separator). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** The CLI of the checkout at `root` (this one by default). */
export function cliOf(root: string = ROOT): string {
  return join(root, 'bin', 'presentation-emulator.js')
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Starts a node child (in `options.cwd`, this checkout by default); resolves once it prints `listening on <origin>`. */
export function startServer(args: string[], options: { cwd?: string } = {}): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, args, { cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /listening on (http:\/\/[^\s]+)/.exec(out)
      if (match) resolve({ child, origin: match[1]! })
    })
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening`)))
  })
}

/** Stops a child we started (by its process, never by name) and waits for it to exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/** One GET; resolves with the status, or 0 when the connection fails. */
export function get(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', () => resolve(0))
    req.end()
  })
}

/** Runs `node args` to completion; resolves with its stdout (rejects on a non-zero exit). */
export function runNode(args: string[], options: { cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd ?? ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`node ${args.join(' ')} exited ${code}: ${err}`))))
  })
}
