import ChimeCore
import PostgresNIO
